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

void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    // Not queued yet: it runs once this worker has nothing else to do, or
    // at its next maintenance (wake_deferred). Then the idle workers hear
    // of the whole batch once, instead of once for every yield.
    workers_[*index].deferred.push_back(task);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}

void MultiThread::wake_deferred(Worker& worker) {
  for (Header* task : worker.deferred) {
    worker.local_schedules.add();  // a statistic
    push_to_ring(worker, task);
  }
  worker.deferred.clear();
  // More than this worker's own next task: another worker could help.
  // (A searcher is to find it already.)
  if (!worker.is_searching && worker.run_queue.len() > 1) notify_parked();
}
