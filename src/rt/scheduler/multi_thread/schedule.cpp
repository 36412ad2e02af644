//@ file threads..
// How work reaches a worker: a task spawned or woken, from any thread or
// (from chapter 05 on) on a worker's own, and the sleeping worker that
// hears of it. Mirrors schedule_task, schedule_local and
// notify_parked_remote in Tokio's runtime/scheduler/multi_thread/worker.rs.
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

//@ listing schedule
void MultiThread::schedule(Header* task) {
//@ chapters local-queues..
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task);
    return;
  }
//@ end
//@ chapters capstone..
  instruments().count_remote_schedule();
//@ end
  if (!inject_.push(task)) {  // shut down: drop the Notified
    drop_reference(task);
    return;
  }
  notify_parked();
}

void MultiThread::notify_parked() {
  if (std::optional<std::size_t> worker = idle_.worker_to_notify()) unpark(*worker);
}

void MultiThread::unpark(std::size_t index) {
  workers_[index].unparks.fetch_add(1, std::memory_order_relaxed);  // a statistic
  workers_[index].parker.unpark();
}
//@ listing-end schedule

//@ chapters local-queues
//@ listing schedule_local
void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  //@ mutant local-queues overflow_wakes_nobody: wakes no sleeping worker for the tasks an overflow moved to the global queue
  if (where != Pushed::local) notify_parked();
  //@ instead
  (void)where;
  //@ end
}
//@ listing-end schedule_local

//@ end
//@ chapters stealing
//@ listing schedule_local
void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
  // Wherever it went, an idle worker can now take it, from the global
  // queue or by stealing. (Cheap when nobody sleeps or somebody searches:
  // worker_to_notify reads one atomic word.)
  //@ mutant stealing ring_push_wakes_nobody: keeps chapter 05's rule, waking a sleeper only for an overflow, so a task in a busy worker's ring waits for it
  (void)where;
  notify_parked();
  //@ instead
  if (where != Pushed::local) notify_parked();
  //@ end
}
//@ listing-end schedule_local

//@ end

}  // namespace rt::detail
