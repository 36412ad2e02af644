Header* MultiThread::next_lifo_task(Worker& worker) {
  Header* task = std::exchange(worker.lifo_slot, nullptr);
  return task;
}
