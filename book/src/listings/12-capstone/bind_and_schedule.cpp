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
