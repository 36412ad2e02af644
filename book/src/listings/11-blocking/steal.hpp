template <std::uint32_t Capacity>
Header* LocalQueue<Capacity>::steal_into(LocalQueue& dst, std::uint32_t& stolen) {
  stolen = 0;
  if (auto hook = on_steal_attempt.load(std::memory_order_acquire)) hook(this);
  // Relaxed: the caller owns dst and is the only writer of its tail.
  std::uint32_t dst_tail = dst.tail_.load(std::memory_order_relaxed);
  // Acquire: pairs with dst's stealers' release: their slots are free.
  auto [dst_steal, dst_real] = unpack(dst.head_.load(std::memory_order_acquire));
  (void)dst_real;
  // A worker with half a ring of its own has enough to do.
  if (dst_tail - dst_steal > Capacity / 2) return nullptr;
  std::uint32_t n = steal_into2(dst, dst_tail);
  if (n == 0) return nullptr;
  stolen = n;
  // The last task copied runs now; the others are published to dst's
  // stealers. Release: whoever acquires dst's tail finds them.
  Header* task = dst.buffer_[(dst_tail + n - 1) & mask].read();
  if (n > 1) dst.tail_.store(dst_tail + n - 1, std::memory_order_release);
  return task;
}

template <std::uint32_t Capacity>
std::uint32_t LocalQueue<Capacity>::steal_into2(LocalQueue& dst, std::uint32_t dst_tail) {
  // 1. Claim: move the real head past half of the tasks, leaving the
  //    steal head where it is, which keeps every other stealer out.
  std::uint64_t prev = head_.load(std::memory_order_acquire);  // pairs with pop's release
  std::uint64_t next = 0;
  std::uint32_t n = 0;
  for (;;) {
    auto [steal, real] = unpack(prev);
    // On every try: a failed claim may have lost to another stealer.
    if (steal != real) return 0;  // another steal is in progress
    // Acquire: pairs with the owner's release of tail_: the slots are written.
    std::uint32_t available = tail_.load(std::memory_order_acquire) - real;
    n = available - available / 2;  // half, rounded up
    if (n == 0) return 0;
    next = pack(steal, real + n);
    if (auto hook = before_steal_claim.load(std::memory_order_acquire)) hook();
    // AcqRel: acquire the owner's latest pops; release our claim. On
    // failure (the owner popped, or another stealer won) `prev` reloads.
    if (head_.compare_exchange_weak(prev, next, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      break;
    }
  }
  if (auto hook = during_steal.load(std::memory_order_acquire)) hook();
  // 2. Copy: the claimed slots are ours to read until we release them.
  auto [first, claimed_end] = unpack(next);
  (void)claimed_end;
  for (std::uint32_t i = 0; i < n; ++i) {
    dst.buffer_[(dst_tail + i) & mask].write(buffer_[(first + i) & mask].read());
  }
  // 3. Release: the steal head catches up with the real head, which the
  //    owner may have moved meanwhile by popping, so retry until it holds.
  prev = next;
  for (;;) {
    auto [steal, real] = unpack(prev);
    (void)steal;
    // AcqRel: release the slots to the owner, who acquires head_ before
    // it overwrites them.
    if (head_.compare_exchange_weak(prev, pack(real, real), std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return n;
    }
  }
}
