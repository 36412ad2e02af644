bool poll_join(Header* task, const Waker& waker) {
  Snapshot snapshot = task->state.load();
  if (snapshot.is_complete()) return true;
  if (snapshot.is_join_waker_set()) {
    if (task->join_waker.will_wake(waker)) return false;  // the same waker: done
    // Take the field back to replace it; that fails once complete.
    if (!task->state.unset_join_waker()) return true;
  }
  // JOIN_WAKER clear: the field is the JoinHandle's to write.
  task->join_waker = waker;
  if (!task->state.set_join_waker(snapshot)) {
    task->join_waker = Waker();  // completed meanwhile: read the output now
    return true;
  }
  return false;
}

void drop_join_handle(Header* task) {
  if (task->state.drop_join_handle_fast()) return;
  TransitionToJoinHandleDrop action = task->state.transition_to_join_handle_dropped();
  if (action.drop_output) task->vtable->drop_output(task);
  if (action.drop_waker) task->join_waker = Waker();
  drop_reference(task);
}

