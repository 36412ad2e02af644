TransitionToNotifiedByVal State::transition_to_notified_by_val() {
  Snapshot current = load();
  for (;;) {
    Snapshot next = current;
    TransitionToNotifiedByVal action;
    if (next.is_running()) {
      // The poller will queue it when its poll ends; the waker's
      // reference is not needed (the poller holds one).
      next.set(NOTIFIED);
      next.ref_dec();
      assert(next.ref_count() > 0);
      action = TransitionToNotifiedByVal::DoNothing;
    } else if (next.is_complete() || next.is_notified()) {
      // Nothing to do but drop the waker's reference.
      next.ref_dec();
      action = next.ref_count() == 0 ? TransitionToNotifiedByVal::Dealloc
                                     : TransitionToNotifiedByVal::DoNothing;
    } else {
      // Idle: a new Notified, with its own reference. The caller keeps
      // the waker's reference until it has queued the task.
      next.set(NOTIFIED);
      next.ref_inc();
      action = TransitionToNotifiedByVal::Submit;
    }
    if (cas(current, next)) return action;
  }
}
