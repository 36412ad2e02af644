void MultiThread::run_lifo_slot(Worker& worker) {
  // What the task just polled woke runs next. Not forever: two tasks that
  // wake each other would keep the slot, and the ring, to themselves.
  for (std::uint32_t lifo_polls = 0;;) {
    Header* task = next_lifo_task(worker);
    if (!task) break;
    if (++lifo_polls >= max_lifo_polls_per_tick) worker.lifo_enabled = false;
    poll_counted(worker, task);
    if (!current_worker()) return;  // the core went with block_in_place
  }
  worker.lifo_enabled = !config_.disable_lifo_slot;
}
