TransitionToNotifiedByVal State::transition_to_notified_by_val() {
  // TODO: wake by value, in one CAS loop. The waker's reference comes
  // with the call:
  //  - RUNNING: set NOTIFIED and drop the waker's reference (DoNothing:
  //    the poller queues the task when its poll ends);
  //  - COMPLETE or already NOTIFIED: only drop the waker's reference
  //    (DoNothing, or Dealloc if it was the last);
  //  - idle: set NOTIFIED and add a reference for the new Notified
  //    (Submit; the caller drops the waker's reference after queueing).
  // Hint: a reference is REF_ONE in the word: Snapshot::ref_inc/ref_dec.
  throw Todo("02 state transition_to_notified_by_val (rt/task/state.cpp)");
}
