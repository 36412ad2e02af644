Header* MultiThread::next_lifo_task(Worker& worker) {
  Header* task = std::exchange(worker.lifo_slot, nullptr);
  // The slot's task runs on what is left of the budget of the task that
  // woke it: with nothing left, it waits its turn in the ring instead.
  if (task && !coop::has_budget_remaining()) {
    push_to_ring(worker, task);
    return nullptr;
  }
  return task;
}
