RawWaker TaskWaker::clone(const void* data) {
  task_of(data)->state.ref_inc();
  return {data, &vtable};
}

void TaskWaker::wake(const void* data) {
  Header* task = task_of(data);
  switch (task->state.transition_to_notified_by_val()) {
    case TransitionToNotifiedByVal::Submit:
      // Two references now: the new Notified's, handed to the scheduler,
      // and this waker's, dropped only afterwards so that the task cannot
      // be freed while schedule() still looks at it.
      task->scheduler->schedule(task);
      drop_reference(task);
      return;
    case TransitionToNotifiedByVal::Dealloc:
      task->vtable->dealloc(task);
      return;
    case TransitionToNotifiedByVal::DoNothing:
      return;
  }
}

void TaskWaker::wake_by_ref(const void* data) {
  Header* task = task_of(data);
  if (task->state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::Submit) {
    task->scheduler->schedule(task);  // with the Notified's new reference
  }
}

