Header* MultiThread::steal_work(std::size_t index) {
  Worker& worker = workers_[index];
  // Enough workers search already: leave the work to them.
  if (!transition_to_searching(worker)) return nullptr;
  std::size_t count = workers_.size();
  std::size_t start = worker.rand.fastrand_n(static_cast<std::uint32_t>(count));
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t victim = (start + i) % count;
    if (victim == index) continue;  // its own ring is empty
    std::uint32_t stolen = 0;
    if (Header* task = workers_[victim].run_queue.steal_into(worker.run_queue, stolen)) {
      worker.steals.add(stolen);  // statistics
      worker.steal_operations.add();
      return task;
    }
  }
  // Nothing to steal: one task from the global queue, if any.
  return inject_.pop();
}
