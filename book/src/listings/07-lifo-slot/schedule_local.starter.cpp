void MultiThread::schedule_local(std::size_t index, Header* task, bool is_yield) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  // TODO: queue `task`, woken or spawned on worker `index`'s own thread:
  //  - into the LIFO slot (worker.lifo_slot), to run right after the task
  //    being polled; a task already in the slot moves to the back of the
  //    ring (push_to_ring);
  //  - but to the back of the ring when the task yields (is_yield), or
  //    while the slot is off (worker.lifo_enabled false);
  //  - then wake an idle worker (notify_parked()) if, and only if,
  //    something went into the ring, where other workers can steal it.
  // Hint: a task that yields asked to let the others run: what would the
  // slot do to that promise?
  (void)worker;
  (void)task;
  (void)is_yield;
  throw Todo("1 of chapter 07 (lifo_schedule, in rt/scheduler/multi_thread/lifo_slot.cpp)");
}

void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task, /*is_yield=*/true);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}
