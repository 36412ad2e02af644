void SignalRegistry::handle(int signo) {
  SignalRegistry& self = instance();  // made before the handler was installed
  int saved = errno;                  // a handler must leave errno as it found it
  self.caught_[signo].store(true, std::memory_order_release);  // release: before the wake below
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t written = ::write(self.wake_fd_, &one, sizeof one);
  errno = saved;
}

void SignalRegistry::listen(int signo) {
  if (signo <= 0 || signo >= NSIG || signo == SIGKILL || signo == SIGSTOP) {
    throw std::invalid_argument("signal " + std::to_string(signo) + " cannot be listened for");
  }
  std::lock_guard lock(mutex_);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, signo);
  ::pthread_sigmask(SIG_BLOCK, &one, nullptr);  // this thread leaves it to the signalfd
  if (sigismember(&listened_, signo)) return;
  struct sigaction action {};
  action.sa_handler = &SignalRegistry::handle;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (::sigaction(signo, &action, nullptr) < 0) throw_last_os_error("sigaction");
  sigaddset(&listened_, signo);
  if (::signalfd(signal_fd_, &listened_, 0) < 0) throw_last_os_error("signalfd");
}
