void MultiThread::run_lifo_slot(Worker& worker) {
  // TODO: the task just polled may have woken another into the slot:
  // take it (next_lifo_task(worker)) and poll it (poll_counted(worker,
  // task)), and again, while there is one. But at most
  // max_lifo_polls_per_tick of them: from the last one on, the slot is
  // off (worker.lifo_enabled = false), so what it wakes goes to the
  // ring. Once the slot is empty, it is on again, unless the builder
  // disabled it (config_.disable_lifo_slot).
  // Hint: two tasks that wake each other through a channel: without the
  // limit, what happens to every other task of this worker?
  (void)worker;
  throw Todo("2 of chapter 07 (lifo_polls, in rt/scheduler/multi_thread/lifo_slot.cpp)");
}
