void Parker::park() {
  // A notification is waiting: take it, and do not sleep at all.
  int expected = notified;
  // acquire: see what the unparker wrote before it notified.
  if (state_.compare_exchange_strong(expected, empty, std::memory_order_acquire)) return;
  if (driver_ && driver_->try_lock()) {
    park_driver();
    driver_->unlock();
  } else {
    park_condvar();
  }
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
  // acq_rel: publish what the caller queued before waking the thread, and
  // (parked_driver) see the driver the parker stored.
  switch (state_.exchange(notified, std::memory_order_acq_rel)) {
    case empty:     // awake: it finds the notification at its next park
    case notified:  // notified already
      return;
    case parked_condvar: {
      // Take the lock, so that the sleeper is in wait() (it holds the
      // lock until then): a notify before it waits would be lost.
      { std::lock_guard lock(mutex_); }
      condvar_.notify_one();
      return;
    }
    case parked_driver:
      driver_->unpark();
      return;
  }
}
