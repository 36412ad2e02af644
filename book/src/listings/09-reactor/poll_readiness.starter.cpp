std::optional<ReadyEvent> ScheduledIo::poll_readiness(Context& cx, io::Direction direction) {
  // TODO: is the socket ready in `direction`? Return the ReadyEvent if it
  // is (ready_event(direction) has bits, or is_shutdown); if not, store a
  // clone of cx.waker() in the direction's slot (reader_ or writer_,
  // under waiters_mutex_) so that wake() finds it, and return nothing.
  //  - call the test hook between your first look and the store:
  //      if (auto hook = before_io_waker_stored.load(std::memory_order_acquire)) hook();
  //  - an event can come at any moment, also between your look and the
  //    store. Make sure it is never lost.
  // Hint: the driver sets the bits first, then takes the lock to wake.
  // What must you do after storing the waker, still under the lock?
  (void)cx;
  (void)direction;
  throw Todo("5 of chapter 09 (poll_readiness, in rt/io/scheduled_io.cpp)");
}
