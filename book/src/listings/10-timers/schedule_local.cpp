void MultiThread::schedule_local(std::size_t index, Header* task, bool is_yield) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  bool others_can_take_it = true;
  if (is_yield || !worker.lifo_enabled) {
    // A yield asks to let the others run first: the back of the ring.
    push_to_ring(worker, task);
  } else {
    // It runs next, here, while what woke it is still in this core's cache.
    Header* displaced = std::exchange(worker.lifo_slot, task);
    if (displaced) push_to_ring(worker, displaced);
    // Only the slot changed: nothing another worker could take.
    others_can_take_it = displaced != nullptr;
  }
  if (others_can_take_it) notify_parked();
}

