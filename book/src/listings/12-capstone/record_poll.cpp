void Instruments::record_poll(std::size_t worker, const void* task, Clock::time_point start, Clock::time_point end) {
  // Only worker `worker`'s thread writes its histogram and its trace.
  PerWorker& mine = workers_[worker];
  if (mine.histogram) {
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    mine.histogram->record(static_cast<std::uint64_t>(nanos));
  }
  if (tracing()) mine.trace.poll(start, end - start, task);
}
