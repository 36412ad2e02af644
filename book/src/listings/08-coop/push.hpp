template <std::uint32_t Capacity>
Pushed LocalQueue<Capacity>::push_back_or_overflow(Header* task, Inject& inject) {
  for (;;) {
    // Acquire: pairs with the release of head_ by pop and by stealers, so
    // that the slots they moved past are truly free to overwrite.
    auto [steal, real] = unpack(head_.load(std::memory_order_acquire));
    // Relaxed: only this thread writes tail_.
    std::uint32_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - steal < Capacity) {
      buffer_[tail & mask].write(task);
      // Release: whoever acquires the new tail (a stealer) finds the
      // task in its slot.
      tail_.store(tail + 1, std::memory_order_release);
      return Pushed::local;
    }
    if (steal != real) {
      // A stealer is emptying the ring and will make room soon; rather
      // than wait for it, this one task goes to the global queue.
      inject.push_batch(task, task, 1);
      return Pushed::global;
    }
    if (push_overflow(task, real, tail, inject)) return Pushed::overflow;
    // A stealer took tasks in the meantime: there is room now.
  }
}
