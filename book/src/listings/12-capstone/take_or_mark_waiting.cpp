bool Semaphore::take_or_mark_waiting() {
  std::size_t state = state_.load(std::memory_order_acquire);
  for (;;) {
    // A permit (there are none while kWaiting is set), or the mark. On
    // failure a release added permits: `state` reloads, and we take one.
    std::size_t next = state >= kPermit ? state - kPermit : state | kWaiting;
    // Acquire: as try_acquire's, for a permit taken.
    if (state_.compare_exchange_weak(state, next, std::memory_order_acquire,
                                     std::memory_order_acquire)) {
      return state >= kPermit;
    }
  }
}

