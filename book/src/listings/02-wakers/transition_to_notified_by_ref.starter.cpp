TransitionToNotifiedByRef State::transition_to_notified_by_ref() {
  // TODO: wake by reference, in one CAS loop. The waker keeps its
  // reference, so the count changes only when a Notified is created:
  //  - COMPLETE or already NOTIFIED: DoNothing (no CAS needed);
  //  - RUNNING: set NOTIFIED, DoNothing (the poller re-queues it);
  //  - idle: set NOTIFIED, add a reference, Submit.
  // Hint: exactly one of many racing wakers can see "idle and not
  // notified" and win the CAS: that is why a task is queued only once.
  throw Todo("02 state transition_to_notified_by_ref (rt/task/state.cpp)");
}
