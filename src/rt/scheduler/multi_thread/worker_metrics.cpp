//@ file threads..
// The workers' counters of chapter 04, as RuntimeMetrics reads them from
// any thread. Mirrors Tokio's runtime/scheduler/multi_thread/worker/
// metrics.rs; later chapters' counters are read beside their code
// (local_queue.cpp, steal.cpp).
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

std::size_t MultiThread::num_workers() const { return workers_.size(); }

std::uint64_t MultiThread::worker_park_count(std::size_t worker) const {
  return workers_.at(worker).parks.load();
}

std::uint64_t MultiThread::worker_unpark_count(std::size_t worker) const {
  return workers_.at(worker).unparks.load(std::memory_order_relaxed);
}

}  // namespace rt::detail
