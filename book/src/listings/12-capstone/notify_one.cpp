void Notify::notify_one() {
  Waker waker;  // destroyed after the unlock
  std::unique_lock lock(mutex_);
  if (detail::Waiter* waiter = waiters_.pop_front()) {
    waiter->granted = by_notify_one;
    waker = std::move(waiter->waker);
  } else {
    permit_ = true;  // one permit at most: a second call changes nothing
  }
  lock.unlock();
  waker.wake();
}

