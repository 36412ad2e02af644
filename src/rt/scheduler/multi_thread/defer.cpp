//@ file coop..
// Tasks that yield wait aside, not in the ring: they run once their worker
// has nothing else to do, or at its next maintenance, and the idle workers
// hear of the whole batch once. Mirrors Tokio's runtime/scheduler/defer.rs
// and its use in runtime/scheduler/multi_thread/worker.rs.
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    // Not queued yet: it runs once this worker has nothing else to do, or
    // at its next maintenance (wake_deferred). Then the idle workers hear
    // of the whole batch once, instead of once for every yield.
    workers_[*index].deferred.push_back(task);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}

void MultiThread::wake_deferred(Worker& worker) {
  for (Header* task : worker.deferred) {
    worker.local_schedules.add();  // a statistic
    push_to_ring(worker, task);
  }
  worker.deferred.clear();
  // More than this worker's own next task: another worker could help.
  // (A searcher is to find it already.)
  if (!worker.is_searching && worker.run_queue.len() > 1) notify_parked();
}

}  // namespace rt::detail
