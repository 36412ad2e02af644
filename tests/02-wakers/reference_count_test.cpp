// Chapter 02: a task's reference count is the number of references to it
// that exist: the owned list's, a queued Notified's, the JoinHandle's and
// one per waker. Read through a waker (its data pointer is the task's
// header), at the moments the current-thread runtime leaves the task idle.
#include <cstddef>
#include <utility>
#include <vector>

#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/task/header.hpp"

namespace {

std::size_t references(const rt::Waker& waker) {
  return static_cast<const rt::detail::Header*>(waker.as_raw().data)->state.load().ref_count();
}

// Keeps a clone of its waker in `slot` and wakes its task by reference on
// its first poll; ready on the second.
class KeepAndWake : public rt::Leaf<KeepAndWake> {
 public:
  explicit KeepAndWake(rt::Waker& slot) : slot_(slot) {}
  bool poll(rt::Context& cx) override {
    if (polled_) return true;
    polled_ = true;
    slot_ = cx.waker();
    cx.waker().wake_by_ref();
    return false;
  }
  void await_resume() const noexcept {}

 private:
  rt::Waker& slot_;
  bool polled_ = false;
};

rt::Task<> keep_wake_then_wait(rt::Waker& slot, Gate& gate) {
  co_await KeepAndWake(slot);
  co_await gate.wait();
}

rt::Task<std::vector<std::size_t>> follow_references(rt::Waker& slot, Gate& gate) {
  std::vector<std::size_t> seen;
  auto handle = rt::spawn(keep_wake_then_wait(slot, gate));
  co_await rt::yield_now();  // its first poll: woken during it, queued again
  seen.push_back(references(slot));  // owned list, JoinHandle, new Notified, slot
  co_await rt::yield_now();  // its second poll: it waits on the gate
  seen.push_back(references(slot));  // owned list, JoinHandle, slot, the gate's waker
  handle.abort();
  // From chapter 04 on, abort() hands the cancellation to the scheduler
  // (with a Notified and its reference); a yield lets the runtime run it.
  co_await rt::yield_now();
  seen.push_back(references(slot));  // JoinHandle, slot, the gate's waker
  { auto dropped = std::move(handle); }
  seen.push_back(references(slot));  // slot, the gate's waker
  gate.open();                       // wakes the cancelled task by value
  seen.push_back(references(slot));  // slot
  co_return seen;
}

}  // namespace

// One flavour: counts read while no other thread can be in the middle of a
// poll of the task.
TEST_CASE("a task's reference count follows its wakes and polls and abort and drops" * POINTS(3)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    rt::Waker slot;
    Gate gate;
    std::vector<std::size_t> seen = runtime.block_on(follow_references(slot, gate));
    CHECK(seen == std::vector<std::size_t>{4, 4, 3, 2, 1});
  });
}
