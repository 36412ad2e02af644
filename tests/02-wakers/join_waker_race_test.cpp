// Chapter 02: the join waker handed back while the task completes, replayed
// on one thread in the order that used to trip an assertion; and a
// completion that lands as the JoinHandle stores its waker.
#include <optional>

#include "fake_tasks.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

using rt::detail::Snapshot;
using rt::detail::State;
using rt::detail::TransitionToRunning;

}  // namespace

TEST_CASE("a JoinHandle that takes its waker back as the task completes sees COMPLETE" * POINTS(1)) {
  State state;  // a new task: NOTIFIED, JOIN_INTEREST, three references
  Snapshot seen{0};
  // The JoinHandle leaves a waker: JOIN_WAKER is set.
  REQUIRE(state.set_join_waker(seen));
  // It is polled again with another waker and, having seen JOIN_WAKER, is
  // about to take the field back. Meanwhile, on a worker, the task runs,
  // completes, wakes the joiner and gives the field back.
  REQUIRE(state.transition_to_running() == TransitionToRunning::Success);
  state.transition_to_complete();
  state.unset_waker_after_complete();
  // Now the JoinHandle's attempt: it must fail because the task is
  // complete (the output is ready), whatever JOIN_WAKER says.
  CHECK_FALSE_MESSAGE(state.unset_join_waker(),
                      "the JoinHandle took its waker back from a task that had completed meanwhile: "
                      "it would store a new one and wait for a wake-up that has come and gone");
  CHECK(state.load().is_complete());
}

namespace {

// A joiner's waker whose first clone, made while the JoinHandle stores it
// in the task, completes the task: the completion lands between the
// JoinHandle's look at the state and its storing of the waker, when the
// runtime finds no waker to wake.
class CompletingWaker {
 public:
  explicit CompletingWaker(State& task) : task_(task), waker_(rt::Waker::from_raw({this, &vtable})) {}
  CompletingWaker(const CompletingWaker&) = delete;
  CompletingWaker& operator=(const CompletingWaker&) = delete;

  const rt::Waker& waker() const { return waker_; }
  int held() const { return refs_ - 1; }  // clones not yet dropped
  bool completed() const { return completed_; }

 private:
  static CompletingWaker& self(const void* data) {
    return *static_cast<CompletingWaker*>(const_cast<void*>(data));
  }
  static rt::RawWaker clone(const void* data) {
    CompletingWaker& waker = self(data);
    ++waker.refs_;
    if (!waker.completed_) {
      waker.completed_ = true;
      // The task runs and completes, on a worker say; JOIN_WAKER is not
      // set yet, so it wakes nobody.
      REQUIRE(waker.task_.transition_to_running() == TransitionToRunning::Success);
      CHECK_FALSE(waker.task_.transition_to_complete().is_join_waker_set());
    }
    return {data, &vtable};
  }
  static void wake(const void* data) { --self(data).refs_; }
  static void wake_by_ref(const void*) {}
  static void drop(const void* data) { --self(data).refs_; }
  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  State& task_;
  int refs_ = 1;
  bool completed_ = false;
  rt::Waker waker_;
};

}  // namespace

TEST_CASE("a task that completes as its JoinHandle stores a waker leaves the JoinHandle ready" * POINTS(2)) {
  std::optional<CompletingWaker> joiner;  // outlives the task, which may keep a clone
  FakeTasks tasks(1);                     // a real task header, never polled
  rt::detail::Header* task = tasks[0];
  joiner.emplace(task->state);
  bool ready = rt::detail::poll_join(task, joiner->waker());
  REQUIRE(joiner->completed());
  CHECK_MESSAGE(ready,
                "the task completed between the JoinHandle's look and its storing of a waker, "
                "and the JoinHandle waits for a wake-up that has come and gone");
  CHECK(task->state.load().is_complete());
  CHECK_FALSE_MESSAGE(task->state.load().is_join_waker_set(),
                      "JOIN_WAKER was set on a task that had completed meanwhile: "
                      "its JoinHandle waits for a wake-up that has come and gone");
  CHECK_MESSAGE(joiner->held() == 0,  // the waker stored too late was dropped again
                "the JoinHandle left its waker in a task that had completed meanwhile, instead of "
                "dropping it and taking the output");
  task->join_waker = rt::Waker();  // (with a wrong answer, before the joiner goes)
}
