template <std::uint32_t Capacity>
bool LocalQueue<Capacity>::push_overflow(Header* task, std::uint32_t head, std::uint32_t tail,
                                         Inject& inject) {
  // TODO: the ring is full (tail - head == Capacity) and nobody steals.
  // Move its NEWER half (the Capacity/2 most recently pushed tasks) and
  // `task` to the global queue, as one chain (linked through queue_next,
  // oldest first) in one inject.push_batch(first, last, count); keep the
  // older half in the ring, in order. Return true.
  //  - Claim the tasks first with one compare-and-swap of head_ (expect
  //    pack(head, head)); if it fails, a stealer moved the head: return
  //    false, and the caller pushes again.
  //  - Copying the older half back is not needed: which index of the
  //    ring maps to the same slot as head + i?
  // Hint: after the claim, the ring looks empty to everyone else, and
  // only this thread may publish tasks again (tail_, release).
  (void)task;
  (void)head;
  (void)tail;
  (void)inject;
  throw Todo("3 of chapter 05 (overflow, in rt/scheduler/multi_thread/queue.hpp)");
}
