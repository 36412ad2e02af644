bool MultiThread::maintenance(Worker& worker) {
  // A batch ends here too, so that a worker that never runs dry still
  // measures its polls.
  Stats::Clock::time_point now = Stats::Clock::now();
  worker.stats.end_batch(now);
  worker.stats.start_batch(now);
  return !inject_.is_closed();
}
