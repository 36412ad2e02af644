// Chapter 04: workers sleep when there is no work, and new work wakes
// exactly one of them, without ever being lost.
#include <atomic>
#include <cstdint>
#include <future>
#include <latch>
#include <optional>

#include "answer.hpp"
#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "workers.hpp"

namespace {

// What the hook below does, once armed: spawn a task through `handle`
// at the moment a worker has found no work and is about to sleep.
struct Interleaving {
  std::optional<rt::Handle> handle;
  std::atomic<bool> armed{false};
  std::promise<rt::JoinHandle<int>> spawned;
};
std::atomic<Interleaving*> interleaving{nullptr};  // read by the worker in the hook

void spawn_as_worker_parks(std::size_t) {
  Interleaving* state = interleaving.load();
  if (state && state->armed.exchange(false)) state->spawned.set_value(state->handle->spawn(rt_test::answer()));
}

}  // namespace

TEST_CASE("a task queued just as the only worker goes to sleep is not lost" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  Interleaving state;
  state.handle = runtime.handle();
  interleaving = &state;
  rt_test::ParkHook hook(&spawn_as_worker_parks);
  rt_test::wait_until_idle(runtime.metrics(), 1);
  // Wake the worker with a task; when it has run it and finds no more
  // work, the hook queues one more, before the worker is listed asleep.
  state.armed = true;
  CHECK(runtime.block_on(rt_test::answer()) == 42);
  CHECK(runtime.block_on([]() -> rt::Task<int> { co_return co_await rt::spawn(rt_test::answer()); }()) == 42);
  rt::JoinHandle<int> late = state.spawned.get_future().get();
  // Lost, it would never run: the worker would sleep with it queued.
  CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await late; }()) == 42);
  interleaving = nullptr;
}

TEST_CASE("a task spawned from outside wakes one sleeping worker and not all of them" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
  for (int round = 0; round < 5; ++round) {
    rt_test::wait_until_idle(runtime.metrics(), 4);
    std::uint64_t before = ch04::total_unparks(runtime);
    rt::JoinHandle<int> handle = runtime.handle().spawn(rt_test::answer());
    CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await handle; }()) == 42);
    rt_test::wait_until_idle(runtime.metrics(), 4);
    // One for the task. From chapter 06 on, the worker that finds it was
    // searching, and the last searcher to find work wakes one more to
    // search on, as Tokio's does: two, and never four.
    std::uint64_t woken = ch04::total_unparks(runtime) - before;
    CHECK(woken >= 1);
    CHECK(woken <= 2);
  }
}

TEST_CASE("a busy worker is never the one woken for new work" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
  for (int round = 0; round < 5; ++round) {
    rt_test::wait_until_idle(runtime.metrics(), 2);
    std::latch first_running(1);
    std::latch second_ran(1);
    // The first task holds its worker until the second has run: the second,
    // spawned once the first runs, needs the other worker, woken while the
    // first is busy.
    auto first = runtime.handle().spawn([&first_running, &second_ran]() -> rt::Task<> {
      first_running.count_down();
      second_ran.wait();
      co_return;
    });
    first_running.wait();
    auto second = runtime.handle().spawn([&second_ran]() -> rt::Task<> {
      second_ran.count_down();
      co_return;
    });
    runtime.block_on([&]() -> rt::Task<> {
      co_await first;
      co_await second;
    }());
  }
}

TEST_CASE("wake-ups from outside reach tasks while every worker sleeps" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
  for (int round = 0; round < 200; ++round) {
    Gate gate;
    auto handle = runtime.handle().spawn([&gate]() -> rt::Task<int> {
      co_await gate.wait();
      co_return 1;
    });
    gate.wait_until_polled();
    rt_test::wait_until_idle(runtime.metrics(), 2);
    gate.open();  // from this thread, which is not a worker
    CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await handle; }()) == 1);
  }
}
