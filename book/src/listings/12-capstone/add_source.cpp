std::shared_ptr<ScheduledIo> IoDriver::add_source(int fd) {
  std::shared_ptr<ScheduledIo> io = registrations_.allocate();
  if (!io) return nullptr;  // shut down
  epoll_event event{};
  event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  event.data.ptr = io.get();
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) < 0) {
    int error = errno;
    registrations_.deregister(io.get());
    throw std::system_error(error, std::system_category(), "epoll_ctl(EPOLL_CTL_ADD)");
  }
  registered_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  return io;
}

void IoDriver::deregister_source(int fd, ScheduledIo* io) {
  // From now on no epoll_wait names it; one in progress may still have.
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  deregistered_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  if (registrations_.deregister(io)) unpark();  // many to free: have them freed
}
