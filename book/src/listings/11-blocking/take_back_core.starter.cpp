void MultiThread::take_back_core(std::size_t index) {
  // TODO(exercise 5): the blocking function returned. If the core is
  // still down (take_core), this thread takes it up and is worker `index`
  // again (set_current_worker). If the new thread took it first, this
  // thread stops being a worker: the loop it is in returns as soon as the
  // task it polls yields (run checks current_worker()).
  // Hint: both threads may try at the same moment; only one of them may
  // come away with the core.
  (void)index;
  throw Todo("5 of chapter 11 (take_back_core, in rt/scheduler/multi_thread/block_in_place.cpp)");
}
