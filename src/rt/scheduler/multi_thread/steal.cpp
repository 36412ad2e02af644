//@ file stealing..
// Stealing and searching: a worker with no work of its own steals half of
// another's ring, and at most about half the workers search at once.
// Mirrors steal_work and the searching transitions in Tokio's
// runtime/scheduler/multi_thread/worker.rs; the steal itself is
// queue_steal.hpp's, the counts of searchers idle.hpp's.
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

//@ listing steal_work
Header* MultiThread::steal_work(std::size_t index) {
  Worker& worker = workers_[index];
  //@ exercise stealing steal_work
  // Enough workers search already: leave the work to them.
  //@ mutant stealing steal_work_ignores_refusal: asks to search, then steals whatever the answer
  if (!transition_to_searching(worker)) return nullptr;
  //@ instead
  transition_to_searching(worker);
  //@ end
  std::size_t count = workers_.size();
  //@ mutant stealing steal_work_fixed_start: always starts at the next worker, so that every searcher tries the same rings first
  std::size_t start = worker.rand.fastrand_n(static_cast<std::uint32_t>(count));
  //@ instead
  std::size_t start = index + 1;
  //@ end
  //@ mutant stealing steal_work_never_steals: looks at the global queue only, never at the other workers' rings
  //@ mutant stealing steal_work_skips_one: starts one past its random pick and stops after count - 1, so the picked worker is never tried
  for (std::size_t i = 0; i < count; ++i) {
  //@ instead
  for (std::size_t i = 1; i < count; ++i) {
  //@ end
    std::size_t victim = (start + i) % count;
    if (victim == index) continue;  // its own ring is empty
    std::uint32_t stolen = 0;
    if (Header* task = workers_[victim].run_queue.steal_into(worker.run_queue, stolen)) {
      //@ mutant stealing steal_counts_operations: counts a steal as one stolen task, whatever it took
      worker.steals.add(stolen);  // statistics
      //@ instead
      worker.steals.add(1);
      (void)stolen;
      //@ end
      worker.steal_operations.add();
      return task;
    }
  }
  //@ instead
  (void)start;
  //@ end
  // Nothing to steal: one task from the global queue, if any.
  return inject_.pop();
  //@ starter
  // TODO: worker `index` has no work of its own. Find some, or return
  // nullptr:
  //  - first become a searcher (transition_to_searching(worker)); if that
  //    is refused, enough workers search already: return nullptr;
  //  - try to steal (workers_[victim].run_queue.steal_into) from every
  //    other worker once, starting at a random one
  //    (worker.rand.fastrand_n(count)); count what a steal took in
  //    worker.steals and worker.steal_operations;
  //  - with nothing stolen, take one task from the global queue.
  // Hint: why a random first victim, and not worker 0, or the next one?
  (void)worker;
  throw Todo("@NN@ steal_work (@FILE@)");
  //@ end
}
//@ listing-end steal_work

bool MultiThread::transition_to_searching(Worker& worker) {
  if (!worker.is_searching) worker.is_searching = idle_.transition_worker_to_searching();
  return worker.is_searching;
}

void MultiThread::transition_from_searching(Worker& worker) {
  if (!worker.is_searching) return;
  worker.is_searching = false;
  // The last searcher found work, and where there was some there may be
  // more: another worker takes up the search.
  if (idle_.transition_worker_from_searching()) notify_parked();
}

// The steals' counters, as RuntimeMetrics reads them (worker_metrics.cpp
// has the others).
std::uint64_t MultiThread::worker_steal_count(std::size_t worker) const {
  return workers_.at(worker).steals.load();
}

std::uint64_t MultiThread::worker_steal_operations(std::size_t worker) const {
  return workers_.at(worker).steal_operations.load();
}

}  // namespace rt::detail
