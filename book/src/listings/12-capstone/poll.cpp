void poll(Header* task) {
  switch (task->state.transition_to_running()) {
    case TransitionToRunning::Success:
      break;
    case TransitionToRunning::Cancelled:
      cancel_task(task);
      complete(task);
      return;
    case TransitionToRunning::Failed:  // running or complete: a stale Notified
      return;
    case TransitionToRunning::Dealloc:
      task->vtable->dealloc(task);
      return;
  }
  // The poll lends the task's leaves a waker that borrows this call's
  // reference: no reference-count traffic unless a leaf clones it.
  WakerRef waker(raw_task_waker(task));
  Context cx(waker.get());
  if (task->poller.poll(cx)) {
    task->vtable->store_output(task);
    complete(task);
    return;
  }
  switch (task->state.transition_to_idle()) {
    case TransitionToIdle::Ok:
      return;
    case TransitionToIdle::OkNotified:
      // Woken during the poll: queue it again, at the back (Tokio's
      // yield_now), then give up the poll's reference.
      task->scheduler->yield_now(task);
      drop_reference(task);
      return;
    case TransitionToIdle::OkDealloc:
      task->vtable->dealloc(task);
      return;
    case TransitionToIdle::Cancelled:
      cancel_task(task);
      complete(task);
      return;
  }
}

