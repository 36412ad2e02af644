template <std::uint32_t Capacity>
Header* LocalQueue<Capacity>::pop() {
  // Acquire: pairs with a stealer's release of head_.
  std::uint64_t head = head_.load(std::memory_order_acquire);
  for (;;) {
    auto [steal, real] = unpack(head);
    // Relaxed: only this thread writes tail_.
    if (real == tail_.load(std::memory_order_relaxed)) return nullptr;
    // With a steal in progress only the real head moves: the stealer
    // still reads the slots from the steal head on, and moves it itself.
    std::uint64_t next = steal == real ? pack(real + 1, real + 1) : pack(steal, real + 1);
    // AcqRel: acquire what a stealer released; release the slot to
    // whoever reads this head next. On failure `head` is reloaded.
    if (head_.compare_exchange_weak(head, next, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return buffer_[real & mask].read();
    }
  }
}
