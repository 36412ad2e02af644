void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  if (where != Pushed::local) notify_parked();
}
