TransitionToRunning State::transition_to_running() {
  // TODO: a worker took this task's Notified from a queue and wants to
  // poll it.
  // The rule: only an idle task (neither RUNNING nor COMPLETE) is polled,
  // by whoever sets RUNNING; a Notified that finds the task running or
  // finished is stale, and so is the reference it held. A wake-up that
  // comes once this poll has started must lead to one more poll.
  // The invariant: the count in the high bits is the number of references
  // that exist; whoever drops the last one frees the task.
  // Decide what each case returns (TransitionToRunning), and what it does
  // to NOTIFIED and to the count.
  // Hint: every transition is one CAS loop: load() once, change a copy,
  // publish it with cas(current, next), which refreshes `current` when
  // another thread changed the word first.
  throw Todo("1 of chapter 02 (state: transition_to_running, in rt/task/state.cpp)");
}
