std::optional<ssize_t> Registration::poll_io(Context& cx, io::Direction direction, IoCall call) {
  for (;;) {
    std::optional<ReadyEvent> event = io_->poll_readiness(cx, direction);
    if (!event) return std::nullopt;  // not ready: the waker is stored
    if (event->is_shutdown) throw_shutdown();
    ssize_t result = call(fd_);
    if (result >= 0) return result;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      throw std::system_error(errno, std::system_category());
    }
    // The readiness was stale. Forget it, unless an event came since.
    if (auto hook = after_would_block.load(std::memory_order_acquire)) hook(*io_);
    io_->clear_readiness(*event);
  }
}
