void MultiThread::park(std::size_t index) {
  Worker& worker = workers_[index];
  if (has_own_tasks(worker)) return;  // queued by its own thread meanwhile
  // Listed first, looked again second, as in chapter 04; but only the
  // last searcher looks, at every queue: while anyone searched, a task
  // queued woke nobody, since the searchers were to find it.
  bool was_last_searcher = idle_.transition_worker_to_parked(index, worker.is_searching);
  worker.is_searching = false;
  // Nobody steals from the slot: a task its own thread put there as it
  // went to sleep moves to the ring, where others can take it.
  if (Header* task = std::exchange(worker.lifo_slot, nullptr)) {
    push_to_ring(worker, task);
    notify_parked();
  }
  if (was_last_searcher) notify_if_work_pending();
  for (;;) {
    worker.parks.add();  // a statistic
    ParkTimer timer(instruments(), index);
    worker.parker.park();
    if (inject_.is_closed() || transition_from_parked(index)) return;
  }
}

bool MultiThread::has_own_tasks(const Worker& worker) const {
  if (worker.lifo_slot) return true;
  return !worker.run_queue.is_empty();
}
