// Chapter 06: on a runtime, an idle worker steals the tasks queued behind a
// busy one, and the last searcher to park looks at every ring once more,
// so that a task queued while it searched is never stranded.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <optional>
#include <thread>
#include <vector>

#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "wait_for.hpp"

namespace {

// A multi-thread runtime of `workers` workers, without chapter 07's LIFO
// slot: these tests hold a worker's thread while the tasks it spawned wait
// to be stolen, and nobody steals the task in a worker's slot.
rt::Runtime without_lifo_slot(std::size_t workers) {
  rt::Builder builder = rt::Builder::new_multi_thread();
  builder.worker_threads(workers);
#ifdef RT_HAS_LIFO_SLOT
  builder.disable_lifo_slot();
#endif
  return builder.build();
}

// Summed over the workers: `metric` is worker_steal_operations (steals
// made) or worker_steal_count (tasks they took).
std::uint64_t total_of(const rt::Runtime& runtime, std::uint64_t (rt::RuntimeMetrics::*metric)(std::size_t) const) {
  std::uint64_t sum = 0;
  for (std::size_t w = 0; w < runtime.metrics().num_workers(); ++w) sum += (runtime.metrics().*metric)(w);
  return sum;
}

}  // namespace

TEST_CASE("an idle worker steals the tasks queued behind a busy one" * POINTS(2)) {
  rt::Runtime runtime = without_lifo_slot(2);
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> ran{0};
    std::latch holder_running{1};   // the other worker is held
    std::latch children_queued{1};  // this worker's ring holds all eight
    runtime.block_on([&]() -> rt::Task<> {
      co_await rt::spawn([&]() -> rt::Task<> {
        // The holder goes into this worker's ring, and the other worker
        // steals it: held there until the ring holds all eight children,
        // its next steal finds eight tasks, not one.
        auto holder = rt::spawn([&]() -> rt::Task<> {
          holder_running.count_down();
          children_queued.wait();
          co_return;
        });
        holder_running.wait();
        // Spawned on this worker, into its ring; then this worker is held
        // until they have all run: only the other one can run them.
        std::vector<rt::JoinHandle<void>> children;
        for (int i = 0; i < 8; ++i) {
          children.push_back(rt::spawn([&ran]() -> rt::Task<> {
            ran.fetch_add(1);
            ran.notify_all();
            co_return;
          }));
        }
        children_queued.count_down();
        rt_test::wait_for(ran, 8);
        for (auto& child : children) co_await child;  // done with `ran` too
        co_await holder;
      });
    }());
    CHECK(ran.load() == 8);
  }
  std::uint64_t steals = total_of(runtime, &rt::RuntimeMetrics::worker_steal_operations);
  CHECK(steals >= 40);  // the holder, then the children, each round
  // The children's first steal of each round found 8 tasks and took 4:
  // the tasks taken outnumber the steals.
  CHECK_MESSAGE(total_of(runtime, &rt::RuntimeMetrics::worker_steal_count) > steals,
                "worker_steal_count counted the steals, not the tasks they took");
}

namespace {

// The moment of the next test: the other worker asleep for good, past
// every look it takes before sleeping.
struct Asleep {
  std::atomic<bool> poke_ran{false};
  std::atomic<bool> armed{true};
  std::optional<rt::RuntimeMetrics> metrics;
  std::size_t worker = 0;           // the sleeper's index
  std::uint64_t parks_when_listed = 0;
  std::latch listed{1};
};
std::atomic<Asleep*> asleep{nullptr};

// On the idle worker, as it lists itself asleep after running the poke:
// the park count it has now, which goes up by one once it has taken its
// last look and sleeps.
void note_the_sleeper(std::size_t worker) {
  Asleep* state = asleep.load();
  if (!state || !state->poke_ran.load() || !state->armed.exchange(false)) return;
  state->worker = worker;
  state->parks_when_listed = state->metrics->worker_park_count(worker);
  state->listed.count_down();
}

}  // namespace

TEST_CASE("a task queued in a busy worker's ring wakes a sleeping worker to steal it" * POINTS(2)) {
  rt::Runtime runtime = without_lifo_slot(2);
  Asleep state;
  state.metrics.emplace(runtime.metrics());
  asleep = &state;
  rt_test::ParkHook hook(&note_the_sleeper);
  std::atomic<int> ran{0};
  std::latch parent_running{1};
  runtime.block_on([&]() -> rt::Task<> {
    auto parent = rt::spawn([&]() -> rt::Task<> {
      parent_running.count_down();
      // The other worker runs the poke, lists itself asleep, looks once
      // more, finds nothing and sleeps: only a wake-up brings it back.
      state.listed.wait();
      while (state.metrics->worker_park_count(state.worker) == state.parks_when_listed)
        std::this_thread::yield();
      std::vector<rt::JoinHandle<void>> children;
      for (int i = 0; i < 8; ++i) {
        children.push_back(rt::spawn([&ran]() -> rt::Task<> {  // into this worker's ring
          ran.fetch_add(1);
          ran.notify_all();
          co_return;
        }));
      }
      rt_test::wait_for(ran, 8);  // this worker is held: the sleeper must wake and steal
      for (auto& child : children) co_await child;
    });
    parent_running.wait();
    // From this thread, through the global queue: it wakes the other
    // worker, whatever it was doing, so that it goes to sleep afresh.
    co_await rt::spawn([&]() -> rt::Task<> {
      state.poke_ran = true;
      co_return;
    });
    co_await parent;
  }());
  CHECK(ran.load() == 8);
  asleep = nullptr;
}

namespace {

// The interleaving of the next test, driven by the hook below.
struct Interleaving {
  std::atomic<bool> armed{false};
  std::atomic<std::thread::id> busy_worker{};  // where the parent task runs
  std::latch searcher_parking{1};  // the other worker is about to park
  std::latch child_queued{1};      // the parent has queued its child
};
std::atomic<Interleaving*> interleaving{nullptr};

// On the worker that is not the parent's, as it is about to park: let the
// parent queue its child now, while this worker still counts as searching
// (so nobody is woken for the child), then go on parking.
void queue_a_child_as_the_searcher_parks(std::size_t) {
  Interleaving* state = interleaving.load();
  if (!state || !state->armed.load()) return;
  std::thread::id busy;
  while ((busy = state->busy_worker.load()) == std::thread::id()) std::this_thread::yield();
  if (busy == std::this_thread::get_id() || !state->armed.exchange(false)) return;
  state->searcher_parking.count_down();
  state->child_queued.wait();
}

}  // namespace

TEST_CASE("the last searcher to park finds a task queued while it searched" * POINTS(2)) {
  rt::Runtime runtime = without_lifo_slot(2);
  rt_test::wait_until_idle(runtime.metrics(), 2);
  Interleaving state;
  interleaving = &state;
  rt_test::ParkHook hook(&queue_a_child_as_the_searcher_parks);
  state.armed = true;
  std::atomic<int> ran{0};
  // The parent wakes one worker, which wakes the other to search on; that
  // one finds nothing and parks: the hook holds it there.
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      state.busy_worker = std::this_thread::get_id();
      state.searcher_parking.wait();
      auto child = rt::spawn([&ran]() -> rt::Task<> {  // into this worker's ring; nobody woken
        ran.fetch_add(1);
        ran.notify_all();
        co_return;
      });
      state.child_queued.count_down();
      rt_test::wait_for(ran, 1);  // this worker stays busy: only the other can run it
      co_await child;
    });
  }());
  CHECK(ran.load() == 1);
  interleaving = nullptr;
}
