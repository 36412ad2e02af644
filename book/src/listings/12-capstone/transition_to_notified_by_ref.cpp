TransitionToNotifiedByRef State::transition_to_notified_by_ref() {
  Snapshot current = load();
  for (;;) {
    // Complete, or notified already: nothing changes, no CAS needed.
    if (current.is_complete() || current.is_notified()) return TransitionToNotifiedByRef::DoNothing;
    Snapshot next = current;
    next.set(NOTIFIED);
    TransitionToNotifiedByRef action = TransitionToNotifiedByRef::DoNothing;
    if (!next.is_running()) {
      next.ref_inc();  // the new Notified's reference
      action = TransitionToNotifiedByRef::Submit;
    }
    if (cas(current, next)) return action;
  }
}
