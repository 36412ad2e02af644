TransitionToIdle State::transition_to_idle() {
  // TODO: end a poll that left the task pending, in one CAS loop:
  //  - CANCELLED set: change nothing, return Cancelled (the caller
  //    cancels the task; it stays RUNNING meanwhile);
  //  - else clear RUNNING, and if NOTIFIED is set (woken during the poll)
  //    add a reference for the new Notified and return OkNotified;
  //  - else drop the poll's reference: Ok, or OkDealloc if it was the last.
  // Hint: the shape of transition_to_running; a branch that changes
  // nothing can return without a CAS.
  throw Todo("02 state transition_to_idle (rt/task/state.cpp)");
}
