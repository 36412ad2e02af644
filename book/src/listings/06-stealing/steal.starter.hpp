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
  // TODO: steal half of this ring's tasks (rounded up: 5 available, 3
  // stolen) into dst's slots from dst_tail on, and return how many; 0
  // when there is nothing, or when another steal is in progress (steal
  // head != real head). Do not publish them: steal_into does.
  //  1. Claim with a compare-and-swap of head_ that moves only the real
  //     head past the tasks you take; the steal head staying behind is
  //     what keeps other stealers out and the owner from overwriting them.
  //  2. Copy the claimed tasks into dst's buffer_.
  //  3. Release: make the steal head equal to the real head again, with a
  //     compare-and-swap (the owner may pop meanwhile, moving the real head).
  // Call the test hooks, if set: before_steal_claim just before each
  // compare-and-swap of step 1, during_steal between 1 and 2.
  // Hint: a claim that fails has lost the ring to someone: look at both
  // heads afresh before you try again.
  // Hint: which orderings make the owner's slot writes visible to you,
  // and your reads finished before the owner overwrites the slots?
  (void)dst;
  (void)dst_tail;
  throw Todo("1 of chapter 06 (steal, in rt/scheduler/multi_thread/queue_steal.hpp)");
}
