void Semaphore::release(std::size_t permits) {
  if (permits == 0) return;
  // Nobody waits: the permits go to the pool with one compare-and-swap.
  // It fails if the word changed, a waiter's mark included, and reloads.
  std::size_t state = state_.load(std::memory_order_relaxed);
  while ((state & kWaiting) == 0) {
    // Release: pairs with try_acquire's acquire (the permit carries our writes).
    if (state_.compare_exchange_weak(state, state + permits * kPermit, std::memory_order_release,
                                     std::memory_order_relaxed)) {
      return;
    }
  }
  std::unique_lock lock(mutex_);
  for (;;) {
    // A WakeList's worth at a time, woken with the lock released.
    WakeList wake;
    for (; permits > 0 && wake.can_push(); --permits) release_one(wake);
    lock.unlock();
    wake.wake_all();
    if (permits == 0) return;
    lock.lock();
  }
}

