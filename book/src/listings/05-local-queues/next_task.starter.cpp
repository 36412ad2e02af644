Header* MultiThread::next_task(std::size_t index) {
  Worker& worker = workers_[index];
  // TODO: return worker `index`'s next task, or nullptr when it has none:
  //  - normally its own tasks first (next_local_task(worker)), and, when
  //    it has none, a batch from the global queue (next_remote_batch);
  //  - but every worker.global_queue_interval ticks (worker.tick counts
  //    them), the global queue first (inject_.pop()), then its own; and
  //    call tune_global_queue_interval(worker) at that moment.
  // Hint: what happens to a task in the global queue while a worker's
  // tasks keep waking each other, if the ring always comes first?
  (void)worker;
  throw Todo("5 of chapter 05 (next_task, in rt/scheduler/multi_thread/local_queue.cpp)");
}
