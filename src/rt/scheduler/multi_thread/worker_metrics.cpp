//@ file threads..
// The workers' counters, as RuntimeMetrics reads them from any thread.
// Mirrors Tokio's runtime/scheduler/multi_thread/worker/metrics.rs.
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

std::size_t MultiThread::num_workers() const { return workers_.size(); }

std::uint64_t MultiThread::worker_park_count(std::size_t worker) const {
  return workers_.at(worker).parks.load();
}

std::uint64_t MultiThread::worker_unpark_count(std::size_t worker) const {
  return workers_.at(worker).unparks.load(std::memory_order_relaxed);
}
//@ chapters local-queues..

std::size_t MultiThread::worker_local_queue_depth(std::size_t worker) const {
  return workers_.at(worker).run_queue.len();
}

std::uint64_t MultiThread::worker_local_schedule_count(std::size_t worker) const {
  return workers_.at(worker).local_schedules.load();
}

std::uint64_t MultiThread::worker_overflow_count(std::size_t worker) const {
  return workers_.at(worker).overflows.load();
}

std::uint64_t MultiThread::worker_poll_count(std::size_t worker) const {
  return workers_.at(worker).polls.load();
}
//@ end
//@ chapters stealing..

std::uint64_t MultiThread::worker_steal_count(std::size_t worker) const {
  return workers_.at(worker).steals.load();
}

std::uint64_t MultiThread::worker_steal_operations(std::size_t worker) const {
  return workers_.at(worker).steal_operations.load();
}
//@ end

}  // namespace rt::detail
