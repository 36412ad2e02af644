void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
  // Wherever it went, an idle worker can now take it, from the global
  // queue or by stealing. (Cheap when nobody sleeps or somebody searches:
  // worker_to_notify reads one atomic word.)
  (void)where;
  notify_parked();
}
