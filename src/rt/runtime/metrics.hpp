//@ file threads..
// RuntimeMetrics: what a runtime can say about itself while it runs.
// Mirrors tokio::runtime::RuntimeMetrics (runtime/metrics/runtime.rs):
// num_workers, global_queue_depth, worker_park_count and the worker_*
// counters of chapters 05 and 06 are Tokio's; the others are the course's,
// for its tests and experiments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "rt/scheduler/handle.hpp"
//@ chapters reactor..
#include "rt/runtime/driver.hpp"
//@ end
//@ chapters capstone..

#include <chrono>
//@ end

namespace rt {

class RuntimeMetrics {
 public:
  explicit RuntimeMetrics(std::shared_ptr<detail::SchedulerHandle> scheduler)
      : scheduler_(std::move(scheduler)) {}

 private:
  std::shared_ptr<detail::SchedulerHandle> scheduler_;

 public:

  // Worker threads (1 for a current-thread runtime).
  std::size_t num_workers() const { return scheduler_->num_workers(); }
  // Tasks waiting in the global (injection) queue.
  std::size_t global_queue_depth() const { return scheduler_->global_queue_depth(); }
  // How often worker `worker` went to sleep.
  std::uint64_t worker_park_count(std::size_t worker) const {
    return scheduler_->worker_park_count(worker);
  }

  // The course's: workers listed as asleep right now.
  std::size_t num_idle_workers() const { return scheduler_->num_idle_workers(); }
  // The course's: how often new work woke worker `worker`.
  std::uint64_t worker_unpark_count(std::size_t worker) const {
    return scheduler_->worker_unpark_count(worker);
  }
  // The course's: how often a thread had to wait for the global queue's lock.
  std::uint64_t global_queue_lock_waits() const { return scheduler_->global_queue_lock_waits(); }
//@ chapters local-queues..

  // Tasks in worker `worker`'s own ring right now.
  std::size_t worker_local_queue_depth(std::size_t worker) const {
    return scheduler_->worker_local_queue_depth(worker);
  }
  // Tasks spawned or woken on worker `worker`'s thread, queued in its ring.
  std::uint64_t worker_local_schedule_count(std::size_t worker) const {
    return scheduler_->worker_local_schedule_count(worker);
  }
  // How often worker `worker`'s ring overflowed to the global queue.
  std::uint64_t worker_overflow_count(std::size_t worker) const {
    return scheduler_->worker_overflow_count(worker);
  }
  // Tasks polled by worker `worker`.
  std::uint64_t worker_poll_count(std::size_t worker) const {
    return scheduler_->worker_poll_count(worker);
  }
//@ end
//@ chapters stealing..

  // Tasks worker `worker` stole from the others.
  std::uint64_t worker_steal_count(std::size_t worker) const {
    return scheduler_->worker_steal_count(worker);
  }
  // Steals by worker `worker` that took at least one task.
  std::uint64_t worker_steal_operations(std::size_t worker) const {
    return scheduler_->worker_steal_operations(worker);
  }
  // The course's: workers searching for work right now.
  std::size_t num_searching_workers() const { return scheduler_->num_searching_workers(); }
//@ end
//@ chapters reactor..

  // Events the I/O driver delivered to sockets (Tokio's io_driver_ready_count).
  std::uint64_t io_driver_ready_count() const { return io_metric(&detail::IoDriver::ready_count); }
  // Sockets registered with it, and deregistered (Tokio's io_driver_fd_*).
  std::uint64_t io_driver_fd_registered_count() const {
    return io_metric(&detail::IoDriver::fd_registered_count);
  }
  std::uint64_t io_driver_fd_deregistered_count() const {
    return io_metric(&detail::IoDriver::fd_deregistered_count);
  }

 private:
  // 0 without I/O enabled.
  std::uint64_t io_metric(std::uint64_t (detail::IoDriver::*metric)() const) const {
    detail::Driver* driver = scheduler_->driver();
    return driver && driver->io() ? (*driver->io().*metric)() : 0;
  }

 public:
//@ end
//@ chapters timers..

  // The course's: timers registered so far (a Sleep's first poll), and
  // timers in the wheel right now. 0 without timers enabled.
  std::uint64_t timer_registration_count() const {
    detail::Driver* driver = scheduler_->driver();
    return driver && driver->time() ? driver->time()->registrations() : 0;
  }
  std::size_t num_timers() const {
    detail::Driver* driver = scheduler_->driver();
    return driver && driver->time() ? driver->time()->num_timers() : 0;
  }
//@ end
//@ chapters blocking..
  // Threads of the blocking pool that are not running a worker's loop:
  // busy with a job or idle (Tokio's num_blocking_threads).
  std::size_t num_blocking_threads() const { return scheduler_->num_blocking_threads(); }
  // Those of them waiting for a job (Tokio's num_idle_blocking_threads).
  std::size_t num_idle_blocking_threads() const { return scheduler_->blocking_pool()->num_idle_threads(); }
  // Jobs waiting for a thread (Tokio's blocking_queue_depth).
  std::size_t blocking_queue_depth() const { return scheduler_->blocking_pool()->queue_depth(); }
//@ end

//@ chapters capstone..
  // Tasks spawned and not yet finished (Tokio's num_alive_tasks).
  std::size_t num_alive_tasks() const { return scheduler_->num_alive_tasks(); }
  // Tasks spawned since the runtime started (Tokio's spawned_tasks_count).
  std::uint64_t spawned_tasks_count() const { return scheduler_->spawned_tasks_count(); }
  // Tasks scheduled from outside the runtime's workers: through the
  // global queue (Tokio's remote_schedule_count).
  std::uint64_t remote_schedule_count() const { return scheduler_->instruments().remote_schedules(); }
  // Operations the budget refused, each making its task yield (Tokio's
  // budget_forced_yield_count).
  std::uint64_t budget_forced_yield_count() const { return scheduler_->instruments().forced_yields(); }

  // The poll-time histogram (Builder::enable_metrics_poll_time_histogram).
  bool poll_time_histogram_enabled() const { return histogram(0) != nullptr; }
  std::size_t poll_time_histogram_num_buckets() const {
    return poll_time_histogram_enabled() ? histogram(0)->num_buckets() : 0;
  }
  // The durations bucket `bucket` holds: [first, second); the last bucket
  // is unbounded (second is the largest duration there is).
  std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds> poll_time_histogram_bucket_range(
      std::size_t bucket) const {
    auto [start, end] = histogram(0)->bucket_range(bucket);
    auto nanos = [](std::uint64_t n) {
      return std::chrono::nanoseconds(n > static_cast<std::uint64_t>(std::chrono::nanoseconds::max().count())
                                          ? std::chrono::nanoseconds::max().count()
                                          : static_cast<std::int64_t>(n));
    };
    return {nanos(start), nanos(end)};
  }
  // Polls by worker `worker` that took a duration in bucket `bucket`.
  std::uint64_t poll_time_histogram_bucket_count(std::size_t worker, std::size_t bucket) const {
    const detail::Histogram* h = histogram(worker);
    return h ? h->count(bucket) : 0;
  }

 private:
  const detail::Histogram* histogram(std::size_t worker) const {
    return scheduler_->instruments().histogram(worker);
  }
//@ end
};

}  // namespace rt
