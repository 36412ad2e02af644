TransitionToRunning State::transition_to_running() {
  // TODO: move an idle task to RUNNING, in one CAS loop:
  //  - not idle (RUNNING or COMPLETE set): the Notified is stale; drop
  //    its reference and return Failed, or Dealloc if it was the last;
  //  - idle: set RUNNING, clear NOTIFIED, and return Cancelled if the
  //    CANCELLED bit is set, else Success.
  // Hint: load() once, then build `next` from a copy of the snapshot and
  // publish it with cas(current, next); cas refreshes `current` when it
  // fails, so loop until it succeeds.
  throw Todo("02 state transition_to_running (rt/task/state.cpp)");
}
