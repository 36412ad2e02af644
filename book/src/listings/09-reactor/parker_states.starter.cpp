void Parker::park() {
  // TODO: sleep until unpark():
  //  - a notification already there (state_ is notified): take it (back
  //    to empty) and return without sleeping;
  //  - else, if there is a driver and it is free (driver_->try_lock()),
  //    sleep in it (park_driver()), then unlock it;
  //  - else sleep on the condition variable (park_condvar()).
  // Hint: two threads of one runtime park at once. Which one waits for
  // I/O, and how does the other learn of an event?
  throw Todo("1 of chapter 09 (park, in rt/scheduler/park.cpp)");
}

void Parker::park_driver() {
  if (auto hook = before_park_driver.load(std::memory_order_acquire)) hook(*this);
  int expected = empty;
  // acq_rel: unpark reads the driver after seeing parked_driver.
  if (!state_.compare_exchange_strong(expected, parked_driver, std::memory_order_acq_rel)) {
    // Notified between the first look and here: take it, do not sleep.
    state_.exchange(empty, std::memory_order_acquire);
    return;
  }
  driver_->park();
  // Woken by an unpark or by an event: either way awake now. An unpark
  // that landed meanwhile is taken here too: the caller looks for work.
  state_.exchange(empty, std::memory_order_acquire);
}

void Parker::park_condvar() {
  std::unique_lock lock(mutex_);
  int expected = empty;
  if (!state_.compare_exchange_strong(expected, parked_condvar, std::memory_order_acq_rel)) {
    state_.exchange(empty, std::memory_order_acquire);  // notified meanwhile
    return;
  }
  for (;;) {
    condvar_.wait(lock);
    expected = notified;
    if (state_.compare_exchange_strong(expected, empty, std::memory_order_acquire)) return;
    // A spurious wake-up: sleep on.
  }
}

void Parker::unpark() {
  // TODO: wake the parker's thread, wherever it sleeps. Swap `notified`
  // into state_, then, by what was there before:
  //  - empty or notified: nothing more (the next park returns at once);
  //  - parked_condvar: wake it on condvar_ (take mutex_ for a moment
  //    first: why?);
  //  - parked_driver: it waits in epoll_wait: wake the driver
  //    (driver_->unpark(), which writes its eventfd).
  // Hint: which of these could a condition variable alone not wake?
  throw Todo("2 of chapter 09 (unpark, in rt/scheduler/park.cpp)");
}
