std::optional<ssize_t> Registration::poll_io(Context& cx, io::Direction direction, IoCall call) {
  // TODO: run the system call `call(fd_)` once the socket is ready in
  // `direction`, and return its result; or return nothing when the task
  // must wait.
  //  - io_->poll_readiness(cx, direction) says whether it looks ready
  //    (nothing: not ready, and the waker is stored: return nothing);
  //    a ReadyEvent with is_shutdown: throw_shutdown();
  //  - the call returns >= 0: that is the result; -1 with errno EINTR:
  //    try again; EAGAIN (or EWOULDBLOCK): the readiness was stale (see
  //    below); any other errno: throw std::system_error(errno,
  //    std::system_category());
  //  - stale readiness: call the test hook, then clear what the event
  //    reported (io_->clear_readiness(event)), and start over:
  //      if (auto hook = after_would_block.load(std::memory_order_acquire)) hook(*io_);
  // Hint: why start over after clearing, instead of returning "wait"?
  // Think of the event that arrived between the EAGAIN and the clear.
  (void)cx;
  (void)direction;
  (void)call;
  throw Todo("8 of chapter 09 (poll_io, in rt/io/registration.cpp)");
}
