// Chapter 01: what becomes of a task as it finishes. A wake that came
// during its last poll polls nothing; the runtime forgets it, so that its
// output goes with its JoinHandle; nobody sees it finished before its
// output is stored; and block_on's own future, once woken, does not wait
// behind every task queued meanwhile.
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "answer.hpp"
#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// A leaf that wakes its own task during its one poll, and is ready at once:
// the task is queued again by a poll that then finishes it.
class WakeSelfAndFinish : public rt::Leaf<WakeSelfAndFinish> {
 public:
  explicit WakeSelfAndFinish(std::atomic<int>& polls) : polls_(polls) {}
  bool poll(rt::Context& cx) override {
    polls_.fetch_add(1);
    cx.waker().wake_by_ref();
    return true;
  }
  void await_resume() const noexcept {}

 private:
  std::atomic<int>& polls_;
};

rt::Task<int> wake_self_then_finish(std::atomic<int>& polls, std::atomic<int>& resumed) {
  co_await WakeSelfAndFinish(polls);
  resumed.fetch_add(1);
  co_return 7;
}

rt::Task<int> finish_while_woken(std::atomic<int>& polls, std::atomic<int>& resumed) {
  auto handle = rt::spawn(wake_self_then_finish(polls, resumed));
  while (!handle.is_finished()) co_await rt::yield_now();
  // Turns enough for the wake of its last poll to come round: it must
  // find the task finished, and poll nothing.
  for (int i = 0; i < 10; ++i) co_await rt::yield_now();
  co_return co_await handle;
}

rt::Task<std::shared_ptr<int>> give_back(std::shared_ptr<int> token) { co_return token; }

// Whether the token a finished task returned is gone once its JoinHandle is.
rt::Task<bool> output_gone_with_handle(std::weak_ptr<int>& watched) {
  auto token = std::make_shared<int>(1);
  watched = token;
  {
    auto handle = rt::spawn(give_back(std::move(token)));
    while (!handle.is_finished()) co_await rt::yield_now();
    CHECK_FALSE(watched.expired());  // the output holds it, for the JoinHandle
  }  // the JoinHandle goes: nobody can take the output any more
  co_return watched.expired();
}

// A task's output that, while `watched` is set, looks at the task's
// JoinHandle whenever it is moved: the completion moves it into the place
// the joiner takes it from, and the task must not look finished until it
// is there.
struct Looked;
std::atomic<const rt::JoinHandle<Looked>*> watched{nullptr};
std::atomic<int> seen_finished_while_moved{0};

struct Looked {
  int value;
  explicit Looked(int v) : value(v) {}
  Looked(Looked&& other) noexcept;
  Looked& operator=(Looked&&) = delete;
};

Looked::Looked(Looked&& other) noexcept : value(other.value) {
  const rt::JoinHandle<Looked>* handle = watched.load();
  if (handle && handle->is_finished()) seen_finished_while_moved.fetch_add(1);
}

rt::Task<Looked> looked_after(Gate& gate) {
  co_await gate.wait();  // until `watched` is set
  co_return Looked(9);
}

rt::Task<int> join_looked() {
  Gate gate;
  auto handle = rt::spawn(looked_after(gate));
  watched = &handle;
  gate.open();
  while (!handle.is_finished()) co_await rt::yield_now();
  watched = nullptr;  // the joiner's own move, below, is not the completion's
  co_return (co_await handle).value;
}

rt::Task<> log_as(std::string& log, char name) {
  log += name;
  co_return;
}

// More tasks than a turn of the loop runs in any chapter (Tokio's
// event_interval, 61, from chapter 04 on).
constexpr int queued_behind = 100;

rt::Task<> root_first(std::string& log) {
  std::vector<rt::JoinHandle<void>> handles;
  for (int i = 0; i < queued_behind; ++i) handles.push_back(rt::spawn(log_as(log, 't')));
  co_await rt::yield_now();  // the root is woken, with every task queued before it
  log += 'r';
  for (auto& handle : handles) co_await handle;
}

}  // namespace

TEST_CASE("a task woken during its last poll is not polled again once it has finished" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    std::atomic<int> polls{0};
    std::atomic<int> resumed{0};
    CHECK(runtime.block_on(finish_while_woken(polls, resumed)) == 7);
    CHECK_MESSAGE(polls == 1, "the finished task was polled again for the wake of its last poll");
    CHECK_MESSAGE(resumed == 1,
                  "the finished task's coroutine was resumed again, for the wake of its last poll");
    CHECK(runtime.block_on(rt_test::answer()) == 42);  // and the runtime runs on
  });
}

TEST_CASE("a finished task is forgotten by its runtime and its output goes with its JoinHandle" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    std::weak_ptr<int> watched_token;
    bool gone = runtime.block_on(output_gone_with_handle(watched_token));
    CHECK_MESSAGE(gone, "the runtime still holds a finished task (and its output) that nobody can join");
  });
}

TEST_CASE("a task looks finished only once its output is stored for the joiner" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    seen_finished_while_moved = 0;
    CHECK(runtime.block_on(join_looked()) == 9);
    CHECK_MESSAGE(seen_finished_while_moved == 0,
                  "the task looked finished while its output was still being stored: "
                  "a joiner on another thread would take an output that is not there");
  });
}

// Only the current-thread runtime runs the tasks on block_on's thread, in
// the order of its loop.
TEST_CASE("block_on polls its woken future before the tasks queued meanwhile" * POINTS(2)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    std::string log;
    runtime.block_on(root_first(log));
#ifdef RT_HAS_MULTI_THREAD
    // From chapter 04 on, a turn of the loop runs up to event_interval
    // tasks (61 by default) before it looks at the root, as Tokio's does.
    const std::size_t tasks_first = 61;
#else
    // Woken, the root is polled at the next turn of the loop: before the
    // next task, or after the one task that turn runs.
    const std::size_t tasks_first = 1;
#endif
    CHECK(log.size() == queued_behind + 1);
    std::size_t root_at = log.find('r');
    CHECK_MESSAGE(root_at <= tasks_first, "block_on ran " << root_at
                                                            << " queued tasks before the future it was woken for (at most "
                                                            << tasks_first << ")");
  });
}
