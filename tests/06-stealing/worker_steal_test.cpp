// Chapter 06: on a runtime, an idle worker steals the tasks queued behind a
// busy one, and the last searcher to park looks at every ring once more,
// so that a task queued while it searched is never stranded; a search
// tries every other ring once, from a random first one, and a worker the
// searchers' limit refuses does not steal.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"
#include "scoped_hook.hpp"
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

namespace {

// Which rings each searching thread tried, in order (on_steal_attempt).
struct Attempts {
  std::mutex mutex;
  std::map<std::thread::id, std::vector<const void*>> by_searcher;
};
std::atomic<Attempts*> attempts{nullptr};

void record_attempt(const void* victim) {
  if (Attempts* a = attempts.load()) {
    std::lock_guard lock(a->mutex);
    a->by_searcher[std::this_thread::get_id()].push_back(victim);
  }
}

// The most searches any one thread made, counting 3 attempts a search.
std::size_t most_searches(Attempts& a) {
  std::lock_guard lock(a.mutex);
  std::size_t most = 0;
  for (auto& searcher : a.by_searcher) most = std::max(most, searcher.second.size() / 3);
  return most;
}

}  // namespace

TEST_CASE("a searching worker tries each other worker's ring once and starts at a random one" * POINTS(2)) {
  // Every ring stays empty (one task at a time, from outside), so every
  // search tries all three other rings and finds nothing in them.
  Attempts tried;
  attempts = &tried;
  rt_test::ScopedHook<void (*)(const void*)> hook(rt::detail::on_steal_attempt, &record_attempt);
  {
    rt::Runtime runtime = without_lifo_slot(4);
    for (int spawned = 0; spawned < 20000 && most_searches(tried) < 40;) {
      runtime.block_on([&]() -> rt::Task<> {
        for (int i = 0; i < 50; ++i, ++spawned) co_await rt::spawn([]() -> rt::Task<> { co_return; });
      }());
    }
  }  // the workers have stopped: every search recorded is whole
  attempts = nullptr;

  REQUIRE_MESSAGE(most_searches(tried) >= 40, "no worker searched 40 times in 20,000 spawns");
  std::set<const void*> every_ring;
  for (auto& searcher : tried.by_searcher) {
    const std::vector<const void*>& rings = searcher.second;
    INFO("a worker that tried " << rings.size() << " rings in all");
    REQUIRE_MESSAGE(rings.size() % 3 == 0,
                    "a search of 4 workers did not try exactly the 3 other rings: one was left out, or its own tried");
    std::set<const void*> others(rings.begin(), rings.end());
    CHECK_MESSAGE(others.size() == 3, "a worker tried " << others.size() << " different rings, not the 3 others");
    std::set<const void*> first_victims;
    for (std::size_t search = 0; search < rings.size(); search += 3) {
      std::set<const void*> one(rings.begin() + search, rings.begin() + search + 3);
      CHECK_MESSAGE(one.size() == 3, "one search tried a ring twice and another not at all");
      first_victims.insert(rings[search]);
    }
    // Random: a worker that always started at the same ring would send
    // every searcher to the same victim first. The chance that a random
    // start repeats itself 40 times is below 2^-40.
    if (rings.size() / 3 >= 40)
      CHECK_MESSAGE(first_victims.size() > 1, "a worker started " << rings.size() / 3
                                                << " searches at the same ring: the first victim is not random");
    every_ring.insert(rings.begin(), rings.end());
  }
  if (tried.by_searcher.size() > 1) CHECK(every_ring.size() == 4);
}

namespace {

// The interleaving of the next test: one worker searches, held inside its
// steal; the other finishes its task meanwhile and, with one of its two
// workers searching already, may not search too.
struct Refusal {
  std::atomic<std::thread::id> runner{};  // the worker that runs the task
  std::atomic<std::thread::id> held{};    // the searcher held in its steal
  std::atomic<bool> task_done{false};
  std::atomic<int> runner_steals_after{0};
  std::atomic<bool> parking_armed{true};
  std::latch searcher_held{1};
  std::latch release_searcher{1};
  std::latch runner_parks{1};
};
std::atomic<Refusal*> refusal{nullptr};

// on_steal_attempt: holds the first searcher that is not the runner;
// counts the runner's attempts once its task is done.
void hold_a_searcher(const void*) {
  Refusal* r = refusal.load();
  if (!r) return;
  std::thread::id me = std::this_thread::get_id();
  if (r->task_done.load() && me == r->runner.load()) {
    r->runner_steals_after.fetch_add(1);
    return;
  }
  std::thread::id nobody{};
  if (me != r->runner.load() && r->held.compare_exchange_strong(nobody, me)) {
    r->searcher_held.count_down();
    r->release_searcher.wait();
  }
}

// before_worker_parks: the runner sleeps after the task, its search done.
void note_the_runner_parks(std::size_t) {
  Refusal* r = refusal.load();
  if (!r || !r->task_done.load() || std::this_thread::get_id() != r->runner.load()) return;
  if (r->parking_armed.exchange(false)) r->runner_parks.count_down();
}

}  // namespace

TEST_CASE("a worker refused as a searcher does not steal" * POINTS(2)) {
  rt::Runtime runtime = without_lifo_slot(2);
  rt_test::wait_until_idle(runtime.metrics(), 2);
  Refusal state;
  refusal = &state;
  rt_test::ScopedHook<void (*)(const void*)> attempt_hook(rt::detail::on_steal_attempt, &hold_a_searcher);
  rt_test::ParkHook park_hook(&note_the_runner_parks);
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      state.runner = std::this_thread::get_id();
      // The worker that took this task woke the other to search on; it
      // tries this worker's ring and is held there, searching.
      state.searcher_held.wait();
      state.task_done = true;
      co_return;
    });
    // This worker now looks for work: of 2 workers, 1 searches already,
    // so it may not search, and parks without trying a ring.
    state.runner_parks.wait();
    state.release_searcher.count_down();
  }());
  refusal = nullptr;
  CHECK_MESSAGE(state.runner_steals_after.load() == 0,
                "a worker stole although transition_to_searching refused it (the other of 2 workers searched)");
}
