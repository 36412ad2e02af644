void BlockingPool::shutdown(std::optional<std::chrono::nanoseconds> timeout) {
  std::unique_lock lock(mutex_);
  if (shutdown_) return;
  shutdown_ = true;
  condvar_.notify_all();  // the idle threads leave, the busy ones after their job
  auto left = [this] { return num_threads_ == 0; };
  bool all_left = true;
  if (timeout) {
    all_left = all_left_.wait_for(lock, *timeout, left);
  } else {
    all_left_.wait(lock, left);
  }
  std::unordered_map<std::size_t, loom::thread> threads = std::move(threads_);
  loom::thread last = std::move(last_exiting_);
  lock.unlock();
  // Those left after the timeout, and this thread if it is one of the
  // pool's (a runtime dropped inside a blocking job), run on unjoined.
  auto finish = [all_left](loom::thread& thread) {
    if (!thread.joinable()) return;
    if (all_left && thread.get_id() != loom::this_thread::get_id()) {
      thread.join();
    } else {
      thread.detach();
    }
  };
  for (auto& [id, thread] : threads) finish(thread);
  finish(last);
}
