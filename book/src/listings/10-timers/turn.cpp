std::size_t IoDriver::turn(int timeout_ms) {
  // The events of the last turn are all dispatched: what was released
  // since can be freed now.
  if (registrations_.needs_release()) registrations_.release();
  int count = ::epoll_wait(epoll_fd_, events_.data(), static_cast<int>(events_.size()), timeout_ms);
  if (count < 0) {
    if (errno == EINTR) return 0;  // a signal: the caller looks around and parks again
    throw_last_os_error("epoll_wait");
  }
  for (int i = 0; i < count; ++i) dispatch(events_[i]);
  return static_cast<std::size_t>(count);
}

void IoDriver::dispatch(const epoll_event& event) {
  if (event.data.u64 == wake_token) {
    // An unpark: empty the counter, so that writes never fill it up.
    std::uint64_t value;
    [[maybe_unused]] ssize_t drained = ::read(wake_fd_, &value, sizeof value);
    return;
  }
  auto* io = static_cast<ScheduledIo*>(event.data.ptr);
  io::Ready ready = io::from_epoll(event.events);
  // The readiness first, the wake second: a woken task must find it.
  io->set_readiness(ready);
  io->wake(ready);
  ready_count_.fetch_add(1, std::memory_order_relaxed);  // a statistic
}
