bool Semaphore::try_acquire() {
  // Acquire, here and on success: a permit carries what its releaser did
  // before release() (a Mutex's guarded data), and this reads it.
  std::size_t state = state_.load(std::memory_order_acquire);
  for (;;) {
    if ((state & kClosed) != 0 || state < kPermit) return false;
    // On failure (a task took a permit, or a release added one) `state`
    // reloads and the loop decides again.
    if (state_.compare_exchange_weak(state, state - kPermit, std::memory_order_acquire,
                                     std::memory_order_acquire)) {
      return true;
    }
  }
}

