void TimeDriver::park(int timeout_ms) {
  // TODO: sleep in the I/O driver no longer than the caller's timeout_ms
  // (-1: no limit) and no longer than the next timer, then fire what is
  // due:
  //  - park_timeout(timeout_ms) reads the wheel's next deadline (and lets
  //    registrations know it, so that an earlier timer wakes us) and
  //    gives the timeout to sleep;
  //  - call the test hook, then sleep: io_->turn(timeout);
  //      if (auto hook = before_time_driver_parks.load(std::memory_order_acquire)) hook(timeout);
  //  - then fire every timer due now: process_at(now_tick()).
  //  - a paused clock (clock_.is_paused()) never gets to the timer by
  //    itself: with a timeout above 0, poll I/O instead (io_->turn(0)),
  //    and if no event came, advance the clock by the timeout
  //    (clock_.advance) before firing.
  // Hint: why must the sleep stop at the next timer, and what wakes it
  // if a sooner timer is registered while it sleeps?
  (void)timeout_ms;
  throw Todo("10 park (rt/time/driver.cpp)");
}
