void SignalRegistry::process() {
  std::lock_guard lock(mutex_);
  // TODO: the driver saw the signalfd or the eventfd readable: turn what
  // was delivered into generations, and wake the listeners.
  //  - read signalfd_siginfo records from signal_fd_ (non-blocking) until
  //    a read returns less than a record; each names a signal (ssi_signo);
  //  - then empty wake_fd_ (one 8-byte read) and take every caught_ flag
  //    (exchange(false), acquire): the handler's deliveries;
  //  - for each signal delivered, bump generations_[signo] (release);
  //  - if any was, wake every listener: notify_.notify_waiters().
  // Hint: the driver is edge-triggered. What happens to a second pending
  // signal if you read only one record?
  throw Todo("5 of chapter 12 (process, in rt/signal/registry.cpp)");
}
