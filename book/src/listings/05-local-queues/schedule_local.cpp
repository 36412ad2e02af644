void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  // Relaxed, as every statistic: nothing is ordered by it.
  worker.local_schedules.fetch_add(1, std::memory_order_relaxed);
  Pushed where = worker.run_queue.push_back_or_overflow(task, inject_);
  if (where == Pushed::overflow) worker.overflows.fetch_add(1, std::memory_order_relaxed);
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  if (where != Pushed::local) notify_parked();
}
