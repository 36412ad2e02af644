Header* MultiThread::next_task(std::size_t index) {
  Worker& worker = workers_[index];
  if (worker.tick % worker.global_queue_interval == 0) {
    // Now and then the global queue comes first: else a task waiting
    // there would wait for as long as this worker's tasks keep spawning
    // and waking each other.
    tune_global_queue_interval(worker);
    if (Header* task = inject_.pop()) return task;
    return next_local_task(worker);
  }
  if (Header* task = next_local_task(worker)) return task;
  return next_remote_batch(worker);
}
