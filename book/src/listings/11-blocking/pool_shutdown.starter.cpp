void BlockingPool::shutdown(std::optional<std::chrono::nanoseconds> timeout) {
  std::unique_lock lock(mutex_);
  if (shutdown_) return;
  // TODO(exercise 3): refuse new jobs (shutdown_), tell every thread
  // (the idle ones leave, the busy ones after their job: run() cancels
  // what is left in the queue), then wait on all_left_ until no thread is
  // left: for ever without a timeout, at most `timeout` with one. Set
  // all_left to whether they all left.
  // Hint: std::condition_variable has a wait and a wait_for that take a
  // predicate; which of them says whether the predicate held?
  bool all_left = false;
  (void)timeout;
  throw Todo("3 of chapter 11 (shutdown, in rt/blocking/pool.cpp)");
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
