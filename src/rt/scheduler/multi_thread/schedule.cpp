//@ file threads..
// How work reaches a worker: a task spawned or woken, from any thread, and
// the sleeping worker that hears of it. Mirrors schedule_task and
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

}  // namespace rt::detail
