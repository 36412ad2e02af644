// Chapter 02: JoinHandle::abort cancels a task: at once if it is waiting,
// when its poll ends if it is running, not at all if it has finished. A
// cancelled task's coroutine is destroyed, and joining it throws a
// JoinError that says it was cancelled.
#include <atomic>
#include <utility>

#include "gate.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Counts, in `*destroyed`, the destruction of the one that lives in a
// coroutine frame (moved-from copies do not count).
class Probe {
 public:
  explicit Probe(std::atomic<int>& destroyed) : destroyed_(&destroyed) {}
  Probe(Probe&& other) noexcept : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  Probe& operator=(Probe&&) = delete;
  ~Probe() {
    if (destroyed_) ++*destroyed_;
  }

 private:
  std::atomic<int>* destroyed_;
};

struct Outcome {
  int destroyed_before_abort = -1;
  int destroyed_after_join = -1;
  bool finished_after_abort = false;
  bool cancelled = false;
  int value = -1;
};

// Awaits `handle`, recording whether it throws a cancellation.
template <class T>
rt::Task<> join(rt::JoinHandle<T>& handle, Outcome& outcome) {
  try {
    outcome.value = static_cast<int>(co_await handle);
  } catch (const rt::JoinError& error) {
    outcome.cancelled = error.is_cancelled();
  }
}

rt::Task<int> record_run(Probe, bool& ran) {
  ran = true;
  co_return 1;
}

rt::Task<Outcome> abort_before_first_poll(std::atomic<int>& destroyed, bool& ran) {
  Outcome outcome;
  auto handle = rt::spawn(record_run(Probe(destroyed), ran));
  outcome.destroyed_before_abort = destroyed;
  handle.abort();
  co_await join(handle, outcome);
  outcome.destroyed_after_join = destroyed;
  for (int i = 0; i < 3; ++i) co_await rt::yield_now();  // it never runs
  co_return outcome;
}

rt::Task<int> wait_on_gate(Probe, Gate& gate, bool& resumed) {
  co_await gate.wait();
  resumed = true;
  co_return 2;
}

rt::Task<Outcome> abort_while_waiting(Gate& gate, std::atomic<int>& destroyed, bool& resumed) {
  Outcome outcome;
  auto handle = rt::spawn(wait_on_gate(Probe(destroyed), gate, resumed));
  while (gate.polls() == 0) co_await rt::yield_now();  // it runs, and waits on the gate
  outcome.destroyed_before_abort = destroyed;
  handle.abort();
  gate.open();  // wakes a cancelled task: nothing happens
  co_await join(handle, outcome);
  outcome.destroyed_after_join = destroyed;
  outcome.finished_after_abort = handle.is_finished();
  co_return outcome;
}

rt::Task<int> three() { co_return 3; }

rt::Task<Outcome> abort_after_completion() {
  Outcome outcome;
  auto handle = rt::spawn(three());
  while (!handle.is_finished()) co_await rt::yield_now();
  outcome.finished_after_abort = handle.is_finished();
  handle.abort();
  co_await join(handle, outcome);
  co_return outcome;
}

// Aborts itself from inside its own poll: it is running, so the abort
// takes effect when the poll ends, and the code after the yield never runs.
rt::Task<int> abort_self(Probe, Gate& gate, rt::JoinHandle<int>*& self, int& reached) {
  co_await gate.wait();  // until `self` is set
  self->abort();
  reached = 1;
  co_await rt::yield_now();
  reached = 2;
  co_return 4;
}

rt::Task<Outcome> abort_while_running(std::atomic<int>& destroyed, int& reached) {
  Outcome outcome;
  Gate gate;
  rt::JoinHandle<int>* self = nullptr;
  auto handle = rt::spawn(abort_self(Probe(destroyed), gate, self, reached));
  self = &handle;
  gate.open();
  co_await join(handle, outcome);
  outcome.destroyed_after_join = destroyed;
  co_return outcome;
}

}  // namespace

TEST_CASE("abort before the first poll cancels the task" * POINTS(2)) {
  // Before its first poll: on workers it could start at once, so this is
  // a current-thread runtime's test.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    std::atomic<int> destroyed{0};
    bool ran = false;
    Outcome outcome = runtime.block_on(abort_before_first_poll(destroyed, ran));
    CHECK(outcome.destroyed_before_abort == 0);
    CHECK(outcome.destroyed_after_join == 1);  // its frame is gone once it is joined
    CHECK(outcome.cancelled);
    CHECK_FALSE(ran);
  });
}

TEST_CASE("abort while suspended destroys the coroutine" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Gate gate;
    std::atomic<int> destroyed{0};
    bool resumed = false;
    Outcome outcome = runtime.block_on(abort_while_waiting(gate, destroyed, resumed));
    CHECK(gate.polls() == 1);
    CHECK(outcome.destroyed_before_abort == 0);
    CHECK(outcome.destroyed_after_join == 1);
    CHECK(outcome.finished_after_abort);
    CHECK(outcome.cancelled);
    CHECK_FALSE(resumed);
  });
}

TEST_CASE("abort after completion changes nothing" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Outcome outcome = runtime.block_on(abort_after_completion());
    CHECK(outcome.finished_after_abort);
    CHECK_FALSE(outcome.cancelled);
    CHECK(outcome.value == 3);
  });
}

TEST_CASE("abort while running cancels the task when its poll ends" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    std::atomic<int> destroyed{0};
    int reached = 0;
    Outcome outcome = runtime.block_on(abort_while_running(destroyed, reached));
    CHECK_MESSAGE(reached == 1, "a task that aborted itself ran on past its yield_now: an abort during "
                                "a poll must cancel the task when that poll ends pending");
    CHECK_MESSAGE(outcome.cancelled,
                  "joining a task aborted during its poll gave no JoinError that says cancelled");
    CHECK_MESSAGE(outcome.destroyed_after_join == 1,
                  "the coroutine of a task aborted during its poll was not destroyed when the poll ended");
  });
}

namespace {

// Aborts itself from inside its poll, then waits on a gate nobody opens
// yet: the poll ends pending, with no wake-up to come.
rt::Task<int> abort_self_then_wait(Probe, Gate& started, Gate& never, rt::JoinHandle<int>*& self,
                                   int& reached) {
  co_await started.wait();  // until `self` is set
  self->abort();
  reached = 1;
  co_await never.wait();
  reached = 2;
  co_return 5;
}

struct PendingAbort {
  bool finished_when_poll_ended = false;
  int destroyed_when_poll_ended = -1;
};

rt::Task<PendingAbort> abort_then_pend(std::atomic<int>& destroyed, Gate& never, int& reached, Outcome& outcome) {
  PendingAbort seen;
  Gate started;
  rt::JoinHandle<int>* self = nullptr;
  auto handle = rt::spawn(abort_self_then_wait(Probe(destroyed), started, never, self, reached));
  self = &handle;
  started.open();
  // A few turns: the task's poll ends pending, and it must then be cancelled.
  for (int i = 0; i < 5 && !handle.is_finished(); ++i) co_await rt::yield_now();
  seen.finished_when_poll_ended = handle.is_finished();
  seen.destroyed_when_poll_ended = destroyed;
  never.open();  // so that a task left waiting is woken, and the join ends
  co_await join(handle, outcome);
  co_return seen;
}

}  // namespace

// On workers the end of the poll is not a moment the root can wait for:
// a current-thread runtime's test.
TEST_CASE("abort during a poll that ends pending with no wake-up cancels the task" * POINTS(2)) {
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    std::atomic<int> destroyed{0};
    int reached = 0;
    Gate never;
    Outcome outcome;
    PendingAbort seen = runtime.block_on(abort_then_pend(destroyed, never, reached, outcome));
    CHECK_MESSAGE(seen.finished_when_poll_ended,
                  "a task aborted while it ran was left waiting when its poll ended, not cancelled");
    CHECK_MESSAGE(seen.destroyed_when_poll_ended == 1,
                  "a task aborted while it ran still had its coroutine when its poll ended pending: "
                  "it was not cancelled");
    CHECK_MESSAGE(reached == 1,
                  "a task aborted while it ran was resumed once woken: the abort was forgotten");
    CHECK_MESSAGE(outcome.cancelled,
                  "joining a task aborted while it ran gave no JoinError that says cancelled");
  });
}
