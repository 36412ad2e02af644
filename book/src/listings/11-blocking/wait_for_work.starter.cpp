bool BlockingPool::wait_for_work(std::unique_lock<loom::mutex>& lock) {
  // TODO(exercise 2): this thread ran out of jobs. Count it as idle, then
  // wait on condvar_ until one of three things happens, and say whether
  // to run the queue again (true) or to leave (false):
  // - spawn picked this thread: it took it off num_idle_ and counted one
  //   wake-up in num_notify_, which this thread takes back;
  // - the thread has been idle for config_.keep_alive: it leaves, and is
  //   no longer idle;
  // - shutdown_: it leaves.
  // A wake-up that is none of these is spurious: wait again.
  // Hint: spawn may pick this thread at the very moment its keep-alive
  // runs out. Which of the two must win, and why?
  (void)lock;
  throw Todo("2 of chapter 11 (wait_for_work, in rt/blocking/pool.cpp)");
}
