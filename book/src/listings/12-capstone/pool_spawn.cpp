void BlockingPool::spawn(Header* job, bool mandatory) {
  std::unique_lock lock(mutex_);
  if (shutdown_) {
    lock.unlock();
    cancel_job({job, mandatory});
    return;
  }
  queue_.push_back({job, mandatory});
  if (num_idle_ > 0) {
    // An idle thread takes it: counted as busy from now on, so that the
    // next spawn does not pick the same one.
    --num_idle_;
    ++num_notify_;
    // Told once the lock is free: a thread woken while it is held would
    // only go to sleep again, on the mutex.
    lock.unlock();
    condvar_.notify_one();
    return;
  }
  if (num_threads_ < config_.thread_cap) start_thread(lock);
  // At the cap: it waits for the next thread that frees up.
}
