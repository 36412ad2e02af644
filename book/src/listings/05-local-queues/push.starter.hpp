template <std::uint32_t Capacity>
Pushed LocalQueue<Capacity>::push_back_or_overflow(Header* task, Inject& inject) {
  // TODO: append `task` at the tail of the ring, and return Pushed::local.
  // When the ring is full (tail - steal head == Capacity), it overflows:
  //  - with a steal in progress (steal head != real head), send this one
  //    task to the global queue (inject.push_batch(task, task, 1)) and
  //    return Pushed::global;
  //  - else call push_overflow; true means it moved half of the ring and
  //    the task to the global queue: return Pushed::overflow; false means
  //    a stealer took tasks meanwhile: try again.
  // Only this thread writes tail_; other threads read it.
  // Hint: why count the room from the steal head and not the real one?
  (void)task;
  (void)inject;
  throw Todo("1 of chapter 05 (push, in rt/scheduler/multi_thread/queue.hpp)");
}
