void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  // Relaxed, as every statistic: nothing is ordered by it.
  worker.local_schedules.fetch_add(1, std::memory_order_relaxed);
  Pushed where = push_to_ring(worker, task);
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  if (where != Pushed::local) notify_parked();
}
