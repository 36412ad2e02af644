bool BlockingPool::wait_for_work(std::unique_lock<loom::mutex>& lock) {
  ++num_idle_;
  while (!shutdown_) {
    bool timed_out = condvar_.wait_for(lock, config_.keep_alive) == std::cv_status::timeout;
    // Picked by spawn, even if the keep-alive ran out at the same moment:
    // spawn counted on this thread, and took it off num_idle_.
    if (num_notify_ > 0) {
      --num_notify_;
      return true;
    }
    if (timed_out) {
      --num_idle_;
      return false;  // idle for keep_alive: leave
    }
    // A spurious wake-up: wait again.
  }
  --num_idle_;
  return false;  // shutdown: leave
}
