//@ file threads..
//@ chapters threads
// MultiThread: N worker threads sharing one global injection queue. Mirrors
// Tokio's runtime/scheduler/multi_thread (worker.rs, handle.rs), as it
// would be with the injection queue alone: the local queues, the LIFO slot
// and stealing come in chapters 05 to 07.
//
// Each worker loops: take the next task from the queue and poll it; with
// none, park until a task arrives. Whoever queues a task wakes one parked
// worker, if any is parked (see idle.hpp for why no wake-up is lost). The
// thread that calls block_on is not a worker: it only polls its own
// future, as in Tokio.
//@ end
//@ chapters local-queues
// MultiThread: N worker threads, each with a ring of its own (queue.hpp),
// and one global injection queue. Mirrors Tokio's
// runtime/scheduler/multi_thread (worker.rs, handle.rs), as it would be
// without stealing (chapter 06) and the LIFO slot (chapter 07).
//
// A task spawned or woken on a worker goes to that worker's ring, with no
// lock; from any other thread, to the global queue. Each worker loops:
// take the next task (its ring first, the global queue every
// global_queue_interval ticks so that nothing there starves) and poll it;
// with none, park until work arrives. The thread that calls block_on is
// not a worker: it only polls its own future, as in Tokio.
//@ end
//@ chapters stealing
// MultiThread: N worker threads, each with a ring of its own (queue.hpp)
// that the others steal from, and one global injection queue. Mirrors
// Tokio's runtime/scheduler/multi_thread (worker.rs, handle.rs), without
// the LIFO slot of chapter 07.
//
// A task spawned or woken on a worker goes to that worker's ring, with no
// lock; from any other thread, to the global queue. Each worker loops:
// take the next task (its ring first, the global queue every
// global_queue_interval ticks); with none, search: steal half of another
// worker's ring, or take from the global queue; with nothing found, park.
// At most about half the workers search at once, and no wake-up is lost
// (idle.hpp says how). The thread that calls block_on is not a worker: it
// only polls its own future, as in Tokio.
//@ end
//@ chapters lifo-slot..
// MultiThread: N worker threads, each with a LIFO slot and a ring of its
// own (queue.hpp) that the others steal from, and one global injection
// queue. Mirrors Tokio's runtime/scheduler/multi_thread (worker.rs,
// handle.rs).
//
// A task spawned or woken on a worker goes to that worker's LIFO slot, to
// run as soon as the task that woke it yields the thread, and the slot's
// previous task goes to the ring;
//@ end
//@ chapters lifo-slot
// a task that yields goes to the ring.
//@ end
//@ chapters coop..
// a task that yields waits aside until its worker has nothing else to
// run, or until its next maintenance, then goes to the ring.
//@ end
//@ chapters lifo-slot..
// From any other thread, tasks go to the global queue. Each worker loops:
// take the next task (the slot, its ring, the global queue every
// global_queue_interval ticks); with none, search: steal half of another
// worker's ring, or take from the global queue; with nothing found, park.
// At most about half the workers search at once, and no wake-up is lost
// (idle.hpp says how). The thread that calls block_on is not a worker: it
// only polls its own future, as in Tokio.
//@ end
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <memory>
#include <optional>
#include <string>
//@ chapters ..timers
#include <thread>
//@ end
#include <vector>

#include "rt/scheduler/handle.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"
//@ chapters local-queues..
#include "rt/scheduler/multi_thread/queue.hpp"
#include "rt/scheduler/multi_thread/stats.hpp"
//@ end
//@ chapters stealing..
#include "rt/util/fast_rand.hpp"
//@ end
#include "rt/scheduler/park.hpp"
//@ chapters reactor..
#include "rt/runtime/driver.hpp"
//@ end
#include "rt/todo.hpp"
#include "rt/util/counter.hpp"

namespace rt::detail {

struct MultiThreadConfig {
  std::size_t workers = 1;
  std::string thread_name = "rt-worker";
//@ chapters threads
  // Not used yet: no local queues (chapter 05), no drivers (chapters 09, 10).
//@ end
//@ chapters local-queues..
  // Unset: each worker tunes its own (stats.hpp).
//@ end
  std::optional<std::uint32_t> global_queue_interval;
  std::uint32_t event_interval = 61;
//@ chapters lifo-slot..
  bool disable_lifo_slot = false;
//@ end
//@ chapters reactor..
  DriverConfig driver;
//@ end
};

class MultiThread final : public SchedulerHandle, public std::enable_shared_from_this<MultiThread> {
 public:
  explicit MultiThread(MultiThreadConfig config);

  // Starts the worker threads; each holds a reference to this handle.
  void start();

  void schedule(Header* task) override;
//@ chapters lifo-slot..
  void yield_now(Header* task) override;
//@ end
  void block_on(Poller& root) override;
  void shutdown() override;

  std::size_t num_workers() const override { return workers_.size(); }
  std::size_t global_queue_depth() const override { return inject_.len(); }
  std::uint64_t global_queue_lock_waits() const override { return inject_.lock_waits(); }
  std::size_t num_idle_workers() const override { return idle_.num_sleeping(); }
  std::uint64_t worker_park_count(std::size_t worker) const override;
  std::uint64_t worker_unpark_count(std::size_t worker) const override;
//@ chapters local-queues..
  std::size_t worker_local_queue_depth(std::size_t worker) const override;
  std::uint64_t worker_local_schedule_count(std::size_t worker) const override;
  std::uint64_t worker_overflow_count(std::size_t worker) const override;
  std::uint64_t worker_poll_count(std::size_t worker) const override;
//@ end
//@ chapters stealing..
  std::uint64_t worker_steal_count(std::size_t worker) const override;
  std::uint64_t worker_steal_operations(std::size_t worker) const override;
  std::size_t num_searching_workers() const override { return idle_.num_searching(); }
//@ end
//@ chapters blocking..
  std::size_t num_blocking_threads() const override;

  // block_in_place (block_in_place.cpp): a worker's thread hands its core
  // to a new thread of the blocking pool, and takes it back afterwards if
  // that thread has not taken it meanwhile.
  std::optional<std::size_t> enter_blocking_section() override;
  void leave_blocking_section(std::size_t index) override;
//@ end

 private:
  // What each worker has of its own. Aligned to a cache line so that
  // neighbours' counters do not share one.
  struct alignas(64) Worker {
    Parker parker;
//@ chapters local-queues..
    LocalQueue<> run_queue;  // pushed and popped by its own thread only
    // Touched by its own thread only.
    std::uint32_t tick = 0;
    std::uint32_t global_queue_interval = Stats::seed_interval;
    Stats stats;
//@ end
//@ chapters lifo-slot..
    Header* lifo_slot = nullptr;  // the task to run next; never stolen
    bool lifo_enabled = true;     // off after max_lifo_polls_per_tick in a row
//@ end
//@ chapters coop..
    std::vector<Header*> deferred;  // tasks that yielded, not queued yet
//@ end
//@ chapters stealing..
    bool is_searching = false;
    FastRand rand;  // where stealing starts
//@ end
    // Statistics, read by RuntimeMetrics from any thread.
    Counter parks;                          // how often it went to sleep
    std::atomic<std::uint64_t> unparks{0};  // how often new work woke it (counted by the waker)
//@ chapters local-queues..
    Counter local_schedules;  // tasks queued in its ring
    Counter overflows;        // times its ring overflowed
    Counter polls;            // tasks it polled
//@ end
//@ chapters stealing..
    Counter steals;            // tasks it stole
    Counter steal_operations;  // steals that took any
//@ end
//@ chapters blocking..
    // The core (everything above that only its own thread touches) waits
    // for a thread to take it: block_in_place set it down, and the new
    // thread or the old one, whichever comes first, takes it up. Tokio's
    // Worker::core.
    std::atomic<bool> core_free{false};
//@ end
  };

  // The worker loop, on worker thread `index`.
  void run(std::size_t index);
//@ chapters local-queues..
  // The next task of worker `index`'s own, or from the global queue.
  Header* next_task(std::size_t index);
  // A batch from the global queue: the first to run, the rest to the ring.
  Header* next_remote_batch(Worker& worker);
  void run_task(Worker& worker, Header* task);
  void poll_counted(Worker& worker, Header* task);
  // The worker's own next task.
  Header* next_local_task(Worker& worker);
  // Into the worker's ring, counting an overflow.
  Pushed push_to_ring(Worker& worker, Header* task);
  // Every event_interval ticks: the statistics; false once shut down.
  bool maintenance(Worker& worker);
  void tune_global_queue_interval(Worker& worker);
  // Which worker of this runtime the calling thread is, if any. Inline:
  // asked on every schedule and every poll, and a std::optional that a
  // call returns is written and read back through memory in pieces, which
  // stalls the load (measured: a tenth of yield_many's time on 2 workers).
  std::optional<std::size_t> current_worker() const {
    if (current_worker_here_.scheduler != this) return std::nullopt;
    return current_worker_here_.index;
  }
  // Which worker the calling thread is, if it is one: Tokio reaches its
  // worker Context through the CURRENT thread-local the same way.
  struct CurrentWorker {
    const MultiThread* scheduler;  // nullptr: not a worker
    std::size_t index;
  };
  static inline thread_local CurrentWorker current_worker_here_{nullptr, 0};
//@ end
//@ chapters blocking..
  // Makes the calling thread worker `index`, or no worker.
  void set_current_worker(std::optional<std::size_t> index);
//@ end
//@ chapters local-queues..
  // A task scheduled on worker `index`'s own thread.
//@ end
//@ chapters local-queues..stealing
  void schedule_local(std::size_t index, Header* task);
//@ end
//@ chapters lifo-slot..
  void schedule_local(std::size_t index, Header* task, bool is_yield = false);
  // Polls what the task just polled put into the slot; see worker.cpp.
  void run_lifo_slot(Worker& worker);
  // The slot's task, taken out of it, or nullptr.
  Header* next_lifo_task(Worker& worker);
  // Tokio's MAX_LIFO_POLLS_PER_TICK.
  static constexpr std::uint32_t max_lifo_polls_per_tick = 3;
//@ end
//@ chapters coop..
  // Queues the tasks that yielded since the last call; see yield_now.
  void wake_deferred(Worker& worker);
//@ end
//@ chapters stealing..
  // Worker `index` found no work of its own: steal some, or take from the
  // global queue; nullptr when there is none anywhere.
  Header* steal_work(std::size_t index);
  bool transition_to_searching(Worker& worker);
  // The worker found work: it stops searching, and the last searcher
  // wakes another to take its place.
  void transition_from_searching(Worker& worker);
  // Back from park: true when the worker is to run again (it was woken,
  // or has work), false when it should sleep on.
  bool transition_from_parked(std::size_t index);
  // After the last searcher parks: wake a worker if any queue has work.
  void notify_if_work_pending();
  // Tasks in the worker's ring (or its slot): no sleeping, then.
  bool has_own_tasks(const Worker& worker) const;
//@ end
  // Sleeps until there may be work, without missing a task queued meanwhile.
  void park(std::size_t index);
//@ chapters threads..local-queues
  // Work queued for worker `index`, or the runtime shut down: no sleeping.
  bool work_pending(std::size_t index) const;
//@ end
//@ chapters blocking..
  // block_in_place's halves: set worker `index`'s core down for a new
  // thread to take up, and afterwards take it back up if it is still
  // down.
  void hand_off_core(std::size_t index);
  void take_back_core(std::size_t index);
  // Takes worker `index`'s core up, if it is down: true for one thread only.
  bool take_core(std::size_t index);
//@ end
  // A task was queued: wake one parked worker, if any.
  void notify_parked();
  // Wakes worker `index`, which notify_parked took off the sleepers' list.
  void unpark(std::size_t index);

  MultiThreadConfig config_;
  Inject inject_;
  Idle idle_;
  std::vector<Worker> workers_;
//@ chapters ..timers
  std::vector<std::thread> threads_;
//@ end
  std::latch started_;  // every worker has entered its loop: build() returns then
//@ chapters blocking..
  std::latch cores_done_;  // every core's loop has seen the shutdown
//@ end
};

}  // namespace rt::detail
