// How a worker goes to sleep without sleeping through work queued
// meanwhile, now that workers search: only the last searcher to park
// looks at every queue. Mirrors park, transition_to_parked and
// transition_from_parked in Tokio's runtime/scheduler/multi_thread/
// worker.rs; the sleepers' list and the searchers' count are idle.hpp's,
// the sleep itself the Parker's (rt/scheduler/park.hpp).
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

//@ listing park
void MultiThread::park(std::size_t index) {
  Worker& worker = workers_[index];
  if (has_own_tasks(worker)) return;  // queued by its own thread meanwhile
  // Listed first, looked again second, as in chapter 04; but only the
  // last searcher looks, at every queue: while anyone searched, a task
  // queued woke nobody, since the searchers were to find it.
  bool was_last_searcher = idle_.transition_worker_to_parked(index, worker.is_searching);
  worker.is_searching = false;
//@ chapters lifo-slot..
  // Nobody steals from the slot: a task its own thread put there as it
  // went to sleep moves to the ring, where others can take it.
  //@ mutant lifo-slot lifo_stranded_by_park: parks with a task in the slot
  if (Header* task = std::exchange(worker.lifo_slot, nullptr)) {
    push_to_ring(worker, task);
    notify_parked();
  }
  //@ instead
  //@ end
//@ end
  //@ mutant stealing park_no_last_look: the last searcher parks without looking at the queues again
  if (was_last_searcher) notify_if_work_pending();
  //@ instead
  (void)was_last_searcher;
  //@ end
  for (;;) {
    worker.parks.add();  // a statistic
//@ chapters capstone..
    ParkTimer timer(instruments(), index);
//@ end
    worker.parker.park();
    if (inject_.is_closed() || transition_from_parked(index)) return;
  }
}

bool MultiThread::has_own_tasks(const Worker& worker) const {
//@ chapters lifo-slot..
  if (worker.lifo_slot) return true;
//@ end
  return !worker.run_queue.is_empty();
}
//@ listing-end park

bool MultiThread::transition_from_parked(std::size_t index) {
//@ chapters reactor..
  // Asleep in the driver, it queued the tasks its events woke on itself:
  // it runs them, whether or not a notifier woke it.
  Worker& worker = workers_[index];
  if (has_own_tasks(worker)) {
    // Unlisted by itself, it is awake and not searching; a notifier that
    // took it off the list counted it as searching.
    worker.is_searching = !idle_.unpark_worker_by_id(index);
    // More than it can run next: another worker could help (Tokio's
    // should_notify_others).
    if (!worker.is_searching && worker.run_queue.len() + (worker.lifo_slot ? 1 : 0) > 1) notify_parked();
    return true;
  }
//@ end
  // Still listed as asleep: nobody woke it for work (a spurious wake-up).
  if (idle_.is_parked(index)) return false;
  // Woken by a notifier, which counted it as searching.
  workers_[index].is_searching = true;
  return true;
}

void MultiThread::notify_if_work_pending() {
  for (Worker& worker : workers_) {
    if (!worker.run_queue.is_empty()) {
      notify_parked();
      return;
    }
  }
  if (!inject_.is_empty()) notify_parked();
}

}  // namespace rt::detail
