void TimeDriver::park(int timeout_ms) {
  int timeout = park_timeout(timeout_ms);
  if (clock_.is_paused() && timeout > 0) {
    // A paused clock never reaches the timer: look at I/O without
    // sleeping, and if nothing came, move the clock to the timer instead.
    if (io_->turn(0) == 0) {
      time::Instant next = tick_to_instant(now_tick() + static_cast<std::uint64_t>(timeout));
      clock_.advance(next - clock_.now());
    }
  } else {
    if (auto hook = before_time_driver_parks.load(std::memory_order_acquire)) hook(timeout);
    io_->turn(timeout);
  }
  process_at(now_tick());
}
