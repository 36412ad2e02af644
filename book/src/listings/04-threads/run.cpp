void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
  started_.count_down();
  for (;;) {
    if (Header* task = inject_.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    if (inject_.is_closed()) return;  // shut down
    park(index);
  }
}
