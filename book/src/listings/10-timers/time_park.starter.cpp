void TimeDriver::park(int timeout_ms) {
  // TODO: sleep in the I/O driver no longer than the caller's timeout_ms
  // (-1: no limit) and no longer than the next timer, then fire what is
  // due:
  //  - park_timeout(timeout_ms) reads the wheel's next deadline (and lets
  //    registrations know it, so that an earlier timer wakes us) and
  //    gives the timeout to sleep;
  //  - a paused clock (clock_.is_paused()) never gets to the timer by
  //    itself: with a timeout above 0, poll I/O instead (io_->turn(0)),
  //    and if no event came, advance the clock (clock_.advance) to the
  //    instant of the tick now_tick() + timeout (tick_to_instant), not by
  //    the timeout: now may sit inside a tick;
  //  - otherwise, call the test hook right before the real sleep, then
  //    sleep: io_->turn(timeout);
  //      if (auto hook = before_time_driver_parks.load(std::memory_order_acquire)) hook(timeout);
  //  - either way, then fire every timer due now: process_at(now_tick()).
  // Hint: why must the sleep stop at the next timer, and what wakes it
  // if a sooner timer is registered while it sleeps?
  (void)timeout_ms;
  throw Todo("5 of chapter 10 (park, in rt/time/driver.cpp)");
}
