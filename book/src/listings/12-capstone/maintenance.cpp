bool MultiThread::maintenance(Worker& worker) {
  // A batch ends here too, so that a worker that never runs dry still
  // measures its polls.
  Stats::Clock::time_point now = Stats::Clock::now();
  worker.stats.end_batch(now);
  worker.stats.start_batch(now);
  // A worker that never runs dry still hears of I/O now and then: what is
  // ready now, if nobody else is in the driver. The tasks it wakes are
  // queued here, on this worker.
  if (driver_) driver_->poll();
  // Tasks that yielded wait no longer than this, even on a busy worker.
  wake_deferred(worker);
  return !inject_.is_closed();
}
