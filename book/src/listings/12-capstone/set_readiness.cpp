void ScheduledIo::set_readiness(io::Ready ready) {
  std::uint32_t current = readiness_.load(std::memory_order_acquire);
  for (;;) {
    if (current & shutdown_bit) return;  // nobody is to be woken any more
    std::uint32_t next = pack(tick_of(current) + 1, ready_of(current) | ready);
    // acq_rel: publish the event to the task that reads the word (acquire
    // there), and see the clears that came before.
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
  }
}

void ScheduledIo::clear_readiness(const ReadyEvent& event) {
  // The closed bits stay: a direction that closed never reopens.
  io::Ready forget = event.ready & ~io::closed;
  std::uint32_t current = readiness_.load(std::memory_order_acquire);
  for (;;) {
    if (tick_of(current) != event.tick) return;  // a newer event: its readiness stays
    std::uint32_t next = (current & ~readiness_mask) | (ready_of(current) & ~forget);
    // acq_rel: ordered with the driver's set_readiness on the same word.
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
  }
}
