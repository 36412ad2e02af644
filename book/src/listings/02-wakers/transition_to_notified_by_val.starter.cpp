TransitionToNotifiedByVal State::transition_to_notified_by_val() {
  // TODO: wake by value: the waker's reference comes with the call, and
  // must end up accounted for whatever the task is doing.
  // The rule: a wake queues the task only when nobody else will poll it:
  // not while it runs (its poller queues it again, if told), not once it
  // is complete, not when it is notified already. A queued Notified
  // holds a reference of its own.
  // The invariant: the count is the number of references that exist;
  // whoever drops the last one frees the task (Dealloc).
  // Decide, for each state the word can be in, which bits change, how the
  // count moves, and what the caller must do (TransitionToNotifiedByVal).
  throw Todo("1 of chapter 02 (state: transition_to_notified_by_val, in rt/task/state.cpp)");
}
