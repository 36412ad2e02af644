void MultiThread::hand_off_core(std::size_t index) {
  Worker& worker = workers_[index];
  // TODO(exercise 4): this thread is about to block; hand the core over.
  // - First, what only this thread would ever run must go where the
  //   other workers can take it, in case no new thread can be had soon:
  //   the tasks that yielded (worker.deferred: wake_deferred does it) and
  //   the slot's task (nobody steals from worker.lifo_slot). Whoever can
  //   take them must hear of them.
  // - Then this thread is no longer the worker (set_current_worker).
  // - Set the core down (worker.core_free, with the ordering that hands
  //   what this thread wrote to the thread that takes it up).
  // - Spawn a mandatory job on the blocking pool
  //   (spawn_blocking_on(shared_from_this(), job, true)) that takes the
  //   core up (take_core) and, if it got it, runs the worker loop
  //   (run(index)).
  // Hint: with every blocking thread busy, the new thread may not start
  // for a long time. Who runs this core's tasks until it does?
  (void)worker;
  throw Todo("4 of chapter 11 (hand_off_core, in rt/scheduler/multi_thread/block_in_place.cpp)");
}
