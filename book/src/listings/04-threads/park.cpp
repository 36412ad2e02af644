void MultiThread::park(std::size_t index) {
  idle_.transition_worker_to_parked(index);
  // Listed first, looked again second: a task queued before the listing
  // found no sleeper to wake, so this look is what finds it.
  if (work_pending(index)) {
    // If a notifier took us off the list meanwhile, its unpark leaves a
    // token: the next park returns at once, and the loop looks again.
    idle_.unpark_worker_by_id(index);
    return;
  }
  workers_[index].parks.add();  // a statistic
  workers_[index].parker.park();
}
