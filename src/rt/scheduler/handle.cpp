//@ file threads..
// The scheduler handle's shared half, compiled once per runtime; see
// handle.hpp.
#include "rt/scheduler/handle.hpp"

#include "rt/task/harness.hpp"

namespace rt::detail {

//@ listing bind_and_schedule
void SchedulerHandle::bind_and_schedule(Header* task) {
  if (!owned_.bind(task)) {
    // Shut down: the task is cancelled before it ever runs, and its
    // JoinHandle says so (as in Tokio).
    detail::shutdown(task);  // takes the owned list's reference
    drop_reference(task);    // and the Notified's, never queued
    return;
  }
  schedule(task);  // a new task is queued exactly as a woken one is
}
//@ listing-end bind_and_schedule

void SchedulerHandle::cancel_all_tasks() {
  owned_.close();
  // Each comes out with the list's reference, which shutdown() takes. No
  // lock is held: destroying a coroutine can wake or drop other tasks.
  while (Header* task = owned_.pop()) detail::shutdown(task);
}

}  // namespace rt::detail
