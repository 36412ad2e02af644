TransitionToIdle State::transition_to_idle() {
  // TODO: the poll ended with the task still pending.
  // The rule: a task woken while it ran is polled again, and queued once
  // however many wakes came; a task cancelled while it ran is not made
  // idle: its poller cancels it.
  // The invariant: every queued Notified holds a reference of its own,
  // and the poll's reference (the Notified it came from) is spent when
  // the poll ends.
  // Decide what each case returns (TransitionToIdle) and how it moves the
  // count. A case that changes nothing needs no CAS.
  throw Todo("1 of chapter 02 (state: transition_to_idle, in rt/task/state.cpp)");
}
