void Notify::notify_one() {
  Waker waker;  // destroyed after the unlock
  std::unique_lock lock(mutex_);
  // TODO: wake the oldest waiter (waiters_.pop_front()), after setting its
  // `granted` to by_notify_one; with nobody waiting, store the permit.
  // Call the waker only after lock.unlock().
  // Hint: the waiter's poll looks at `granted`, under the same mutex, to
  // tell a real notification from a spurious wake-up.
  (void)waker;
  throw Todo("4 of chapter 03 (notify_one, in rt/sync/notify.cpp)");
}

