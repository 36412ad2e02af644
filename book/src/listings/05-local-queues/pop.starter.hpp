template <std::uint32_t Capacity>
Header* LocalQueue<Capacity>::pop() {
  // TODO: take the task at the real head, or return nullptr when the ring
  // is empty (real head == tail). Move the head with a compare-and-swap
  // of head_, retrying if a stealer changed it meanwhile:
  //  - nobody steals (steal head == real head): both move forward;
  //  - a steal is in progress: only the real head moves (the stealer
  //    moves its own when it is done).
  // Hint: after a successful CAS, is the slot still yours to read?
  throw Todo("2 of chapter 05 (pop, in rt/scheduler/multi_thread/queue.hpp)");
}
