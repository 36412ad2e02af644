template <std::uint32_t Capacity>
bool LocalQueue<Capacity>::push_overflow(Header* task, std::uint32_t head, std::uint32_t tail,
                                         Inject& inject) {
  constexpr std::uint32_t half = Capacity / 2;
  // Claim all Capacity tasks at once: moving the head to the tail leaves
  // the ring empty for stealers. Release, as every move of head_. Fails
  // when a stealer got there first.
  std::uint64_t expected = pack(head, head);
  if (!head_.compare_exchange_strong(expected, pack(tail, tail), std::memory_order_release,
                                     std::memory_order_relaxed)) {
    return false;
  }
  // The newer half (head + half .. tail) and the new task become one chain.
  Header* first = buffer_[(head + half) & mask].read();
  Header* last = first;
  for (std::uint32_t i = half + 1; i < Capacity; ++i) {
    last->queue_next = buffer_[(head + i) & mask].read();
    last = last->queue_next;
  }
  last->queue_next = task;
  task->queue_next = nullptr;
  // The older half is still in its slots: slot (tail + i) is slot
  // (head + i), since tail - head == Capacity. Handing it back is one
  // store. Release: a stealer that acquires the tail finds those tasks.
  tail_.store(tail + half, std::memory_order_release);
  inject.push_batch(first, task, half + 1);
  return true;
}
