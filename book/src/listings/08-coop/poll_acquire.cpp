Semaphore::Outcome Semaphore::poll_acquire(Acquire& acquire, Context& cx) {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  Waiter& waiter = acquire.waiter_;
  if (acquire.done_) return waiter.granted ? Outcome::acquired : Outcome::closed;
  if (waiter.granted) {  // release() handed us a permit while we waited
    acquire.done_ = true;
    return Outcome::acquired;
  }
  if (closed_) {
    waiters_.remove(waiter);
    acquire.done_ = true;
    return Outcome::closed;
  }
  if (!waiter.queued) {  // the first poll
    if (permits_ > 0) {  // nobody waits (the invariant), so nobody is passed
      --permits_;
      waiter.granted = 1;
      acquire.done_ = true;
      return Outcome::acquired;
    }
    waiters_.push_back(waiter);
  }
  // Queued, now or before: a spurious wake-up lands here too.
  replaced = waiter.register_waker(cx);
  return Outcome::pending;
}

