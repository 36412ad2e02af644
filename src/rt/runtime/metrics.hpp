//@ file threads..
// RuntimeMetrics: what a runtime can say about itself while it runs.
// Mirrors tokio::runtime::RuntimeMetrics (runtime/metrics/runtime.rs):
// num_workers, global_queue_depth and worker_park_count are Tokio's; the
// others are the course's, for its tests and experiments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "rt/scheduler/handle.hpp"

namespace rt {

class RuntimeMetrics {
 public:
  explicit RuntimeMetrics(std::shared_ptr<detail::SchedulerHandle> scheduler)
      : scheduler_(std::move(scheduler)) {}

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

 private:
  std::shared_ptr<detail::SchedulerHandle> scheduler_;
};

}  // namespace rt
