//@ file threads..local-queues
// How a worker goes to sleep without sleeping through work queued
// meanwhile. Mirrors park and transition_to_parked in Tokio's
// runtime/scheduler/multi_thread/worker.rs; the sleepers' list is
// idle.hpp's, the sleep itself the Parker's (rt/scheduler/park.hpp).
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

//@ listing park
void MultiThread::park(std::size_t index) {
  //@ exercise threads park
  //@ mutant threads park_look_before_listing: looks at the queue, then lists itself asleep
  idle_.transition_worker_to_parked(index);
  // Listed first, looked again second: a task queued before the listing
  // found no sleeper to wake, so this look is what finds it.
  //@ mutant threads park_no_second_look: lists itself asleep and parks without looking again
  if (work_pending(index)) {
    // If a notifier took us off the list meanwhile, its unpark leaves a
    // token: the next park returns at once, and the loop looks again.
    //@ mutant threads park_stays_listed: finds work on its last look but stays listed asleep, so the idle count says it sleeps while it runs
    idle_.unpark_worker_by_id(index);
    //@ instead
    //@ end
    return;
  }
  //@ instead
  if (inject_.is_closed()) return;  // (only shutdown is looked for)
  //@ end
  //@ instead
  if (work_pending(index)) return;
  idle_.transition_worker_to_parked(index);
  //@ end
  workers_[index].parks.add();  // a statistic
  workers_[index].parker.park();
  //@ starter
  // TODO: put worker `index` to sleep until there may be work, without
  // ever sleeping through a task queued meanwhile:
  //  - list it as a sleeper (idle_.transition_worker_to_parked), so that
  //    whoever queues a task next wakes it;
  //  - then look again (work_pending(index): work queued, or shut
  //    down): if so, unlist it (idle_.unpark_worker_by_id) and return;
  //  - else count the park (workers_[index].parks) and sleep on
  //    workers_[index].parker.
  // Hint: why list first and look second? Think of a task pushed between
  // the run loop's empty pop and this call, when nobody was listed.
  (void)index;
  throw Todo("@NN@ park (@FILE@)");
  //@ end
}
//@ listing-end park

bool MultiThread::work_pending(std::size_t index) const {
//@ chapters local-queues
  // Its own thread may have queued a task in its ring as it went to sleep.
  //@ mutant local-queues last_look_skips_own_ring: looks only at the global queue before sleeping, not at its own ring
  if (!workers_[index].run_queue.is_empty()) return true;
  //@ instead
  //@ end
//@ else
  (void)index;
//@ end
  return !inject_.is_empty() || inject_.is_closed();
}

}  // namespace rt::detail
