bool SignalDriver::arm() {
  Waker waker = Waker::from_raw(RawWaker{this, &vtable});
  Context cx(waker);
  bool ready = false;
  for (Source* source : {&signals_, &wake_}) {
    std::optional<ReadyEvent> event = source->io->poll_readiness(cx, io::Direction::read);
    if (!event) continue;  // the waker is left: the next delivery wakes it
    if (event->is_shutdown) return false;  // the runtime is going: nothing more to hear
    source->io->clear_readiness(*event);   // we read everything next, in process()
    ready = true;
  }
  return ready;
}

void SignalDriver::on_ready() {
  // Clear, then read: a delivery after the clear sets the readiness again
  // and arm() sees it, so none waits unread.
  do {
    SignalRegistry::instance().process();
  } while (arm());
}
