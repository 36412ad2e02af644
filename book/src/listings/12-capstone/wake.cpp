void ScheduledIo::wake(io::Ready ready) {
  Waker reader;
  Waker writer;
  {
    std::lock_guard lock(waiters_mutex_);
    if (ready & io::mask(io::Direction::read)) reader = std::move(reader_);
    if (ready & io::mask(io::Direction::write)) writer = std::move(writer_);
  }
  // Woken with the lock released: a wake can run a lot (in a test's waker).
  if (reader) reader.wake();
  if (writer) writer.wake();
}

void ScheduledIo::shutdown() {
  // acq_rel: a task that sees the bit sees everything before it.
  readiness_.fetch_or(shutdown_bit, std::memory_order_acq_rel);
  wake(io::mask(io::Direction::read) | io::mask(io::Direction::write));
}
