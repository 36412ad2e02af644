void BlockingPool::spawn(Header* job, bool mandatory) {
  std::unique_lock lock(mutex_);
  if (shutdown_) {
    lock.unlock();
    cancel_job({job, mandatory});
    return;
  }
  queue_.push_back({job, mandatory});
  // TODO(exercise 1): `job` is at the back of the queue; now get a thread
  // to it, the cheapest way there is.
  // - An idle thread (num_idle_ > 0) is the cheapest: wake one. It no
  //   longer counts as idle, and it must be able to tell your wake-up from
  //   a spurious one when it wakes (num_notify_).
  // - Else start a thread (start_thread), but never beyond
  //   config_.thread_cap.
  // - Else nothing: the job waits for the next thread that frees up.
  // Hint: a thread you wake is still counted idle until it runs. What
  // does the next spawn, a moment later, conclude from that count?
  (void)num_notify_;
  throw Todo("1 of chapter 11 (spawn, in rt/blocking/pool.cpp)");
}
