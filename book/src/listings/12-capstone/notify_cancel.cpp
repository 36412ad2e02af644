void Notify::cancel(Notified& notified) {
  Waker waker;
  std::unique_lock lock(mutex_);
  waiters_.remove(notified.waiter_);
  if (notified.waiter_.granted != by_notify_one || notified.done_) return;
  if (detail::Waiter* next = waiters_.pop_front()) {
    next->granted = by_notify_one;
    waker = std::move(next->waker);
  } else {
    permit_ = true;
  }
  lock.unlock();
  waker.wake();
}

