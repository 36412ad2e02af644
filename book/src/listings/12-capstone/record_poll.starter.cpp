void Instruments::record_poll(std::size_t worker, const void* task, Clock::time_point start, Clock::time_point end) {
  // TODO: worker `worker` polled `task` from `start` to `end` (the runtime
  // times polls only when it keeps a histogram or a trace):
  //  - into the worker's histogram (workers_[worker].histogram, if it is
  //    kept): the poll's duration in nanoseconds;
  //  - into the worker's trace (workers_[worker].trace.poll), if the
  //    runtime traces (tracing()).
  // Hint: which thread may write workers_[worker]? Why can that be done
  // without a lock?
  (void)worker;
  (void)task;
  (void)start;
  (void)end;
  throw Todo("8 of chapter 12 (record_poll, in rt/runtime/metrics/instruments.cpp)");
}
