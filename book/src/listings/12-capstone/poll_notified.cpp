bool Notify::poll_notified(Notified& notified, Context& cx) {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  if (notified.done_) return true;
  detail::Waiter& waiter = notified.waiter_;
  if (waiter.granted != 0 || waiters_calls_ != notified.calls_) {
    waiters_.remove(waiter);  // notify_waiters() to a future never polled
    notified.done_ = true;
    return true;
  }
  if (!waiter.queued) {  // the first poll
    if (permit_) {
      permit_ = false;
      notified.done_ = true;
      return true;
    }
    waiter.tag = waiters_calls_;
    waiters_.push_back(waiter);
  }
  replaced = waiter.register_waker(cx);  // a spurious wake-up lands here
  return false;
}

