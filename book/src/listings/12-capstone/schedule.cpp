void MultiThread::schedule(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task);
    return;
  }
  instruments().count_remote_schedule();
  if (!inject_.push(task)) {  // shut down: drop the Notified
    drop_reference(task);
    return;
  }
  notify_parked();
}

void MultiThread::notify_parked() {
  if (std::optional<std::size_t> worker = idle_.worker_to_notify()) unpark(*worker);
}

void MultiThread::unpark(std::size_t index) {
  workers_[index].unparks.fetch_add(1, std::memory_order_relaxed);  // a statistic
  workers_[index].parker.unpark();
}
