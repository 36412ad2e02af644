void SignalRegistry::process() {
  std::lock_guard lock(mutex_);
  std::array<bool, NSIG> delivered{};
  // The signalfd: every pending signal, until it says there is no more.
  // One read could leave some behind, and the driver, edge-triggered,
  // would not say so again.
  signalfd_siginfo info;
  while (::read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo < NSIG) delivered[info.ssi_signo] = true;
  }
  // The handler's path: empty the eventfd, then take the flags. In this
  // order: a delivery after the read sets its flag and writes again.
  std::uint64_t count;
  [[maybe_unused]] ssize_t drained = ::read(wake_fd_, &count, sizeof count);
  for (int signo = 1; signo < NSIG; ++signo) {
    if (caught_[signo].exchange(false, std::memory_order_acquire)) delivered[signo] = true;  // acquire: pairs with the handler
  }
  bool any = false;
  for (int signo = 1; signo < NSIG; ++signo) {
    if (!delivered[signo]) continue;
    generations_[signo].fetch_add(1, std::memory_order_release);  // release: a listener that sees it sees the delivery
    any = true;
  }
  if (any) notify_.notify_waiters();  // after the generations: a woken listener finds its own
}
