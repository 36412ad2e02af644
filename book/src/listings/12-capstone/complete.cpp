void complete(Header* task) {
  Snapshot snapshot = task->state.transition_to_complete();
  if (!snapshot.is_join_interested()) {
    // Nobody will ever join: the output is ours to destroy.
    task->vtable->drop_output(task);
  } else if (snapshot.is_join_waker_set()) {
    // JOIN_WAKER set and COMPLETE now set: the field is ours to read.
    task->join_waker.wake_by_ref();
    // Give the field back; if the JoinHandle is gone meanwhile, the waker
    // is ours to drop.
    if (!task->state.unset_waker_after_complete().is_join_interested()) task->join_waker = Waker();
  }
  // The run's own reference, plus the owned list's if this unlinked it.
  std::size_t count = task->scheduler->release(*task) ? 2 : 1;
  if (task->state.transition_to_terminal(count)) task->vtable->dealloc(task);
}

