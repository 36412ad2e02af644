void MultiThread::park(std::size_t index) {
  // TODO: put worker `index` to sleep until there may be work, without
  // ever sleeping through a task queued meanwhile:
  //  - list it as a sleeper (idle_.transition_worker_to_parked), so that
  //    whoever queues a task next wakes it;
  //  - then look again (work_pending(index): work queued, or shut
  //    down): if so, unlist it (idle_.unpark_worker_by_id) and return;
  //  - else count the park (workers_[index].parks) and sleep on
  //    workers_[index].parker.
  // Hint: why list first and look second? Think of a task pushed between
  // the run loop's empty pop and this call, when nobody was listed.
  (void)index;
  throw Todo("2 of chapter 04 (park, in rt/scheduler/multi_thread/park_worker.cpp)");
}
