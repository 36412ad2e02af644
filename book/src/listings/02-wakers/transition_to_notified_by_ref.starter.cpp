TransitionToNotifiedByRef State::transition_to_notified_by_ref() {
  // TODO: wake by reference: the waker keeps its reference.
  // The rule: as for a wake by value, the task is queued only when nobody
  // else will poll it, and a wake that comes during a poll still leads to
  // one more poll.
  // The invariant: of any number of wakers racing on other threads,
  // exactly one queues the task, with one new reference; so the look at
  // the word and the change to it must be one atomic step.
  // Decide which states lead to Submit, and what each one changes.
  throw Todo("1 of chapter 02 (state: transition_to_notified_by_ref, in rt/task/state.cpp)");
}
