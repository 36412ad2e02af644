void shutdown(Header* task) {
  if (!task->state.transition_to_shutdown()) {
    drop_reference(task);  // running (it sees CANCELLED) or complete already
    return;
  }
  // RUNNING is ours, as for a poll: the coroutine may be destroyed, and
  // this call's reference is the run's.
  cancel_task(task);
  complete(task);
}

