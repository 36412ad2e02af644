//@ file threads..
// MultiThread: the multi-thread scheduler, N worker threads and one global
// injection queue. Mirrors Tokio's runtime/scheduler/multi_thread
// (mod.rs, handle.rs and worker.rs). The thread that calls block_on is not
// a worker: it only polls its own future, as in Tokio.
//
// One concept a file: the scheduler's life (multi_thread.cpp), how work
// reaches a worker (schedule.cpp), the loop each worker runs (worker.cpp),
// how a worker sleeps without missing work (park_worker.cpp, with idle.hpp
// for the sleepers' list), and what each worker has of its own (core.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <latch>
#include <memory>
#include <optional>
//@ chapters ..timers
#include <thread>
//@ end
#include <vector>

#include "rt/loom.hpp"
#include "rt/scheduler/handle.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/config.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"
//@ chapters local-queues..
#include "rt/scheduler/multi_thread/queue.hpp"
#include "rt/scheduler/multi_thread/stats.hpp"
//@ end
#include "rt/todo.hpp"

namespace rt::detail {

class MultiThread final : public SchedulerHandle, public std::enable_shared_from_this<MultiThread> {
 public:
  explicit MultiThread(MultiThreadConfig config);

  // Starts the worker threads; each holds a reference to this handle.
  void start();

  void schedule(Header* task) override;
  void block_on(Poller& root) override;
  void shutdown() override;

  // What RuntimeMetrics reads (worker_metrics.cpp).
  std::size_t num_workers() const override;
  std::size_t global_queue_depth() const override { return inject_.len(); }
  std::uint64_t global_queue_lock_waits() const override { return inject_.lock_waits(); }
  std::size_t num_idle_workers() const override { return idle_.num_sleeping(); }
  std::uint64_t worker_park_count(std::size_t worker) const override;
  std::uint64_t worker_unpark_count(std::size_t worker) const override;

 private:
  // The model tests (tests/04-threads/model) drive park, run and the
  // queues directly, as Tokio's loom tests reach its worker's internals.
  friend struct MultiThreadModelAccess;

  // What each worker has of its own: core.hpp.
  struct Worker;

  // The worker loop, on worker thread `index`.
  void run(std::size_t index);
  // Sleeps until there may be work, without missing a task queued meanwhile.
  void park(std::size_t index);
//@ chapters threads..local-queues
  // Work queued for worker `index`, or the runtime shut down: no sleeping.
  bool work_pending(std::size_t index) const;
//@ end
  // A task was queued: wake one parked worker, if any.
  void notify_parked();
  // Wakes worker `index`, which notify_parked took off the sleepers' list.
  void unpark(std::size_t index);
//@ chapters local-queues..

  // The local queues (local_queue.cpp).
 public:
  std::size_t worker_local_queue_depth(std::size_t worker) const override;
  std::uint64_t worker_local_schedule_count(std::size_t worker) const override;
  std::uint64_t worker_overflow_count(std::size_t worker) const override;
  std::uint64_t worker_poll_count(std::size_t worker) const override;

 private:
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
  // At shutdown, once its thread is gone: drops the references of the
  // tasks the worker still holds.
  void drop_own_tasks(Worker& worker);
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
//@ chapters local-queues..stealing
  // A task scheduled on worker `index`'s own thread.
  void schedule_local(std::size_t index, Header* task);
//@ end
//@ chapters stealing..

  // Stealing and searching (steal.cpp, park_worker.cpp).
 public:
  std::uint64_t worker_steal_count(std::size_t worker) const override;
  std::uint64_t worker_steal_operations(std::size_t worker) const override;
  std::size_t num_searching_workers() const override { return idle_.num_searching(); }

 private:
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
//@ chapters lifo-slot..

  // The LIFO slot (lifo_slot.cpp).
 public:
  void yield_now(Header* task) override;

 private:
  // A task scheduled on worker `index`'s own thread.
  void schedule_local(std::size_t index, Header* task, bool is_yield = false);
  // Polls what the task just polled put into the slot.
  void run_lifo_slot(Worker& worker);
  // The slot's task, taken out of it, or nullptr.
  Header* next_lifo_task(Worker& worker);
  // Tokio's MAX_LIFO_POLLS_PER_TICK.
  static constexpr std::uint32_t max_lifo_polls_per_tick = 3;
//@ end
//@ chapters coop..

  // Queues the tasks that yielded since the last call (defer.cpp).
  void wake_deferred(Worker& worker);
//@ end
//@ chapters blocking..

  // block_in_place (block_in_place.cpp): a worker's thread hands its core
  // to a new thread of the blocking pool, and takes it back afterwards if
  // that thread has not taken it meanwhile.
 public:
  std::size_t num_blocking_threads() const override;
  std::optional<std::size_t> enter_blocking_section() override;
  void leave_blocking_section(std::size_t index) override;

 private:
  // Makes the calling thread worker `index`, or no worker.
  void set_current_worker(std::optional<std::size_t> index);
  // block_in_place's halves: set worker `index`'s core down for a new
  // thread to take up, and afterwards take it back up if it is still
  // down.
  void hand_off_core(std::size_t index);
  void take_back_core(std::size_t index);
  // Takes worker `index`'s core up, if it is down: true for one thread only.
  bool take_core(std::size_t index);
//@ end

  MultiThreadConfig config_;
  Inject inject_;
  Idle idle_;
  std::vector<Worker> workers_;
  std::latch started_{static_cast<std::ptrdiff_t>(config_.workers)};  // every worker has entered its loop
//@ chapters ..timers
  std::vector<loom::thread> threads_;
//@ else
  std::latch cores_done_{static_cast<std::ptrdiff_t>(config_.workers)};  // every core's loop has seen the shutdown
//@ end
};

}  // namespace rt::detail

#include "rt/scheduler/multi_thread/core.hpp"
