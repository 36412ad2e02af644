TransitionToIdle State::transition_to_idle() {
  Snapshot current = load();
  for (;;) {
    assert(current.is_running());
    // Cancelled during the poll: stay RUNNING; the caller cancels it.
    if (current.is_cancelled()) return TransitionToIdle::Cancelled;
    Snapshot next = current;
    next.unset(RUNNING);
    TransitionToIdle action;
    if (next.is_notified()) {
      // Woken while it ran: the poller queues it again, with a new
      // Notified reference, and only once however many wakes came.
      next.ref_inc();
      action = TransitionToIdle::OkNotified;
    } else {
      // The poll's reference (the Notified it came from) is spent.
      next.ref_dec();
      action = next.ref_count() == 0 ? TransitionToIdle::OkDealloc : TransitionToIdle::Ok;
    }
    // acq_rel: release the frame to the next poller.
    if (cas(current, next)) return action;
  }
}
