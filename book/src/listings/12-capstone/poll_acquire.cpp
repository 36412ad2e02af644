Semaphore::Outcome Semaphore::poll_acquire(Acquire& acquire, Context& cx) {
  Waiter& waiter = acquire.waiter_;
  if (acquire.done_) return waiter.granted ? Outcome::acquired : Outcome::closed;
  if (!acquire.waiting_) {  // the first poll: the pool, without the lock
    if (try_acquire()) {
      waiter.granted = 1;
      acquire.done_ = true;
      return Outcome::acquired;
    }
    if (auto hook = semaphore_after_fast_path.load(std::memory_order_acquire)) hook();
  }
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  if (waiter.granted) {  // release() handed us a permit while we waited
    acquire.done_ = true;
    return Outcome::acquired;
  }
  // kClosed is written under this lock, and close() unlinked every waiter.
  if ((state_.load(std::memory_order_relaxed) & kClosed) != 0) {
    acquire.done_ = true;
    return Outcome::closed;
  }
  if (!acquire.waiting_) {
    // A release may have filled the pool since the fast path looked, and
    // one may still until the queue is marked as waited on.
    if (take_or_mark_waiting()) {
      waiter.granted = 1;
      acquire.done_ = true;
      return Outcome::acquired;
    }
    waiters_.push_back(waiter);
    acquire.waiting_ = true;
  }
  // Queued, now or before: a spurious wake-up lands here too.
  replaced = waiter.register_waker(cx);
  return Outcome::pending;
}

