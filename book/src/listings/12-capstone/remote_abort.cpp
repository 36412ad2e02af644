void remote_abort(Header* task) {
  // Marks it CANCELLED and, if it is idle, queues it: a worker cancels it
  // as it would poll it. No coroutine is destroyed on this thread, which
  // may be in the middle of another task's poll.
  if (task->state.transition_to_notified_and_cancel()) task->scheduler->schedule(task);
}
