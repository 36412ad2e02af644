//@ file threads..
// MultiThread::Worker: what each worker has of its own. Mirrors the
// per-worker state of Tokio's runtime/scheduler/multi_thread/worker.rs:
// its Core (what only the worker's own thread touches) beside its parker
// and its WorkerMetrics (which other threads signal or read).
#pragma once

#include <atomic>
#include <cstdint>

#include "rt/loom.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"
#include "rt/scheduler/park.hpp"
#include "rt/util/counter.hpp"
//@ chapters stealing..
#include "rt/util/fast_rand.hpp"
//@ end

namespace rt::detail {

// Aligned to a cache line so that neighbours' counters do not share one.
struct alignas(64) MultiThread::Worker {
  Parker parker;
  // Statistics, read by RuntimeMetrics from any thread.
  Counter parks;                          // how often it went to sleep
  loom::atomic<std::uint64_t> unparks{0};  // how often new work woke it (counted by the waker)
//@ chapters local-queues..

  LocalQueue<> run_queue;  // pushed and popped by its own thread only
  // Touched by its own thread only.
  std::uint32_t tick = 0;
  std::uint32_t global_queue_interval = Stats::seed_interval;
  Stats stats;
  // Statistics, as above.
  Counter local_schedules;  // tasks queued in its ring
  Counter overflows;        // times its ring overflowed
  Counter polls;            // tasks it polled
//@ end
//@ chapters stealing..

  bool is_searching = false;  // its own thread's, like rand
  FastRand rand;              // where stealing starts
  Counter steals;             // statistics: tasks it stole
  Counter steal_operations;   // steals that took any
//@ end
//@ chapters lifo-slot..

  Header* lifo_slot = nullptr;  // the task to run next; never stolen
  bool lifo_enabled = true;     // off after max_lifo_polls_per_tick in a row
//@ end
//@ chapters coop..

  std::vector<Header*> deferred;  // tasks that yielded, not queued yet
//@ end
//@ chapters blocking..

  // The core (everything above that only its own thread touches) waits
  // for a thread to take it: block_in_place set it down, and the new
  // thread or the old one, whichever comes first, takes it up. Tokio's
  // Worker::core.
  loom::atomic<bool> core_free{false};
//@ end
};

}  // namespace rt::detail
