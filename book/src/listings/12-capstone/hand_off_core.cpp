void MultiThread::hand_off_core(std::size_t index) {
  Worker& worker = workers_[index];
  // What only this thread would ever run goes where others can take it,
  // in case no new thread can be had soon: the tasks that yielded, and
  // the slot's task, which nobody steals.
  wake_deferred(worker);
  Header* slot_task = std::exchange(worker.lifo_slot, nullptr);
  if (slot_task) push_to_ring(worker, slot_task);
  // This thread runs none of the ring's tasks now: a worker must hear of
  // them, be it only one.
  if (!worker.run_queue.is_empty()) notify_parked();
  // From here on this thread spawns and wakes as any other thread does.
  set_current_worker(std::nullopt);
  // release: the core's state, to whichever thread takes it up.
  worker.core_free.store(true, std::memory_order_release);
  auto take_up = [self = shared_from_this(), index] {
    if (self->take_core(index)) self->run(index);
  };
  (void)spawn_blocking_on(shared_from_this(), std::move(take_up), /*mandatory=*/true);
}
