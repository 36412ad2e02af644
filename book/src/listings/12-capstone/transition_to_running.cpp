TransitionToRunning State::transition_to_running() {
  Snapshot current = load();
  for (;;) {
    assert(current.is_notified());
    Snapshot next = current;
    TransitionToRunning action;
    if (!next.is_idle()) {
      // Running elsewhere, or already complete (cancelled at shutdown,
      // say): this Notified is stale. Give up its reference.
      next.ref_dec();
      action = next.ref_count() == 0 ? TransitionToRunning::Dealloc : TransitionToRunning::Failed;
    } else {
      // Idle: take it. Clearing NOTIFIED first means a wake that comes
      // during the poll sets it again, and is not lost.
      next.set(RUNNING);
      next.unset(NOTIFIED);
      action = next.is_cancelled() ? TransitionToRunning::Cancelled : TransitionToRunning::Success;
    }
    // acq_rel: acquire what the previous poll wrote to the frame.
    if (cas(current, next)) return action;
  }
}
