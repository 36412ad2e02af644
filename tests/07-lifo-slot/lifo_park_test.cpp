// Chapter 07: the slot is the worker's alone: no other worker steals from
// it, and a worker never sleeps with a task in it.
#include <atomic>
#include <future>
#include <latch>
#include <optional>
#include <thread>

#include "answer.hpp"
#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"

namespace {

// The next test's interleaving.
struct NeverStolen {
  std::atomic<std::thread::id> parent_thread{};
  std::atomic<std::thread::id> d_thread{};
  std::atomic<std::thread::id> c_thread{};
  std::atomic<bool> d_ran{false};
  std::atomic<bool> c_ran_while_held{false};
  std::atomic<bool> armed{true};
  std::latch other_parking{1};
};
std::atomic<NeverStolen*> never_stolen{nullptr};

// The other worker has run D, searched again, and is about to sleep.
void other_worker_parks(std::size_t) {
  NeverStolen* state = never_stolen.load();
  if (!state || !state->d_ran.load()) return;
  if (std::this_thread::get_id() == state->parent_thread.load()) return;
  if (state->armed.exchange(false)) state->other_parking.count_down();
}

}  // namespace

TEST_CASE("no other worker steals the task in a worker's slot" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
  NeverStolen state;
  never_stolen = &state;
  rt_test::ParkHook hook(&other_worker_parks);
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      state.parent_thread = std::this_thread::get_id();
      // The other worker has gone to sleep: only a wake-up brings it back
      // to steal D.
      rt_test::wait_until_idle(rt::Handle::current().metrics(), 1);
      (void)rt::spawn([&]() -> rt::Task<> {  // D: pushed out of the slot by C
        state.d_thread = std::this_thread::get_id();
        state.d_ran = true;
        co_return;
      });
      auto c = rt::spawn([&]() -> rt::Task<> {  // C: in the slot
        state.c_thread = std::this_thread::get_id();
        co_return;
      });
      // This worker is held until the other one has stolen D, run it, and
      // looked for more work: C was there to take, had the slot been
      // stealable.
      state.other_parking.wait();
      state.c_ran_while_held = state.c_thread.load() != std::thread::id();
      co_await c;  // C runs now, from the slot, then wakes this task
    });
  }());
  never_stolen = nullptr;
  CHECK_FALSE(state.c_ran_while_held.load());
  CHECK(state.d_thread.load() != state.parent_thread.load());
  CHECK(state.c_thread.load() == state.parent_thread.load());  // run next, from the slot
}

namespace {

// Spawns, from the worker's own thread, as it is about to sleep: the task
// goes into its slot.
struct AsItSleeps {
  std::optional<rt::Handle> handle;
  std::atomic<bool> armed{false};
  std::promise<rt::JoinHandle<int>> spawned;
};
std::atomic<AsItSleeps*> as_it_sleeps{nullptr};

void spawn_into_the_slot(std::size_t) {
  AsItSleeps* state = as_it_sleeps.load();
  if (state && state->armed.exchange(false)) state->spawned.set_value(state->handle->spawn(rt_test::answer()));
}

}  // namespace

TEST_CASE("a worker never sleeps with a task in its slot" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  AsItSleeps state;
  state.handle = runtime.handle();
  as_it_sleeps = &state;
  rt_test::ParkHook hook(&spawn_into_the_slot);
  rt_test::wait_until_idle(runtime.metrics(), 1);
  state.armed = true;
  // Wake the worker; when it has run this and finds no more work, the
  // hook spawns into its slot, just before it lists itself as asleep.
  CHECK(runtime.block_on([]() -> rt::Task<int> { co_return co_await rt::spawn(rt_test::answer()); }()) == 42);
  rt::JoinHandle<int> late = state.spawned.get_future().get();
  CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await late; }()) == 42);
  as_it_sleeps = nullptr;
}
