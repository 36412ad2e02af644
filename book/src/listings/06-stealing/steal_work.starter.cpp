Header* MultiThread::steal_work(std::size_t index) {
  Worker& worker = workers_[index];
  // TODO: worker `index` has no work of its own. Find some, or return
  // nullptr:
  //  - first become a searcher (transition_to_searching(worker)); if that
  //    is refused, enough workers search already: return nullptr;
  //  - try to steal (workers_[victim].run_queue.steal_into) from every
  //    other worker once, starting at a random one
  //    (worker.rand.fastrand_n(count)); count what a steal took in
  //    worker.steals and worker.steal_operations;
  //  - with nothing stolen, take one task from the global queue.
  // Hint: why a random first victim, and not worker 0, or the next one?
  (void)worker;
  throw Todo("3 of chapter 06 (steal_work, in rt/scheduler/multi_thread/steal.cpp)");
}
