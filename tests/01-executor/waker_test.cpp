// Chapter 01: a waker re-queues its task, from any thread, and only a woken
// task is polled again.
#include "gate.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> wait_then_return(Gate& gate, int value) {
  co_await gate.wait();
  co_return value;
}

rt::Task<int> join_waiting_task(Gate& gate) {
  auto handle = rt::spawn(wait_then_return(gate, 5));
  co_return co_await handle;
}

rt::Task<int> yield_while_other_waits(Gate& gate, int yields) {
  auto handle = rt::spawn(wait_then_return(gate, 1));
  while (gate.polls() == 0) co_await rt::yield_now();  // it reaches the gate
  for (int i = 0; i < yields; ++i) co_await rt::yield_now();
  co_return gate.polls();
}

rt::Task<int> wake_three_times(Gate& gate) {
  auto handle = rt::spawn(wait_then_return(gate, 1));
  co_await rt::yield_now();  // let the task reach the gate
  rt::Waker waker = gate.waker();
  waker.wake_by_ref();
  waker.wake_by_ref();
  waker.wake_by_ref();
  for (int i = 0; i < 5; ++i) co_await rt::yield_now();
  co_return gate.polls();
}

}  // namespace

TEST_CASE("a waker called from another thread wakes a waiting block_on" * POINTS(3)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Gate gate;
    Opener opener(gate);
    CHECK(runtime.block_on(wait_then_return(gate, 42)) == 42);
  });
}

TEST_CASE("a waker called from another thread re-queues its task" * POINTS(3)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Gate gate;
    Opener opener(gate);
    CHECK(runtime.block_on(join_waiting_task(gate)) == 5);
    CHECK(gate.polls() == 2);  // once pending, once after the wake
  });
}

TEST_CASE("a task that is never woken is never polled again" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Gate gate;
    CHECK(runtime.block_on(yield_while_other_waits(gate, 20)) == 1);
  });
}

TEST_CASE("waking a queued task again does not queue it twice" * POINTS(2)) {
  // On a current-thread runtime the task cannot run between the three
  // wakes; on workers it can, and a wake after that poll rightly polls it
  // once more.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    Gate gate;
    CHECK(runtime.block_on(wake_three_times(gate)) == 2);
  });
}
