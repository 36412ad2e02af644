//@ file capstone..
// The process's signal registry, compiled once per runtime; see registry.hpp.
#include "rt/signal/registry.hpp"

#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>

#include "rt/todo.hpp"
#include "rt/util/system_error.hpp"

namespace rt::detail {

SignalRegistry& SignalRegistry::instance() {
  // Never destroyed: a signal can arrive while the process exits.
  static SignalRegistry* registry = new SignalRegistry();
  return *registry;
}

SignalRegistry::SignalRegistry() {
  sigemptyset(&listened_);
  signal_fd_ = ::signalfd(-1, &listened_, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd_ < 0) throw_last_os_error("signalfd");
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw_last_os_error("eventfd");
}

//@ listing signal_listen
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
//@ listing-end signal_listen

//@ listing signal_process
void SignalRegistry::process() {
  std::lock_guard lock(mutex_);
  //@ exercise capstone process
  std::array<bool, NSIG> delivered{};
  // The signalfd: every pending signal, until it says there is no more.
  // One read could leave some behind, and the driver, edge-triggered,
  // would not say so again.
  signalfd_siginfo info;
  //@ mutant capstone process_reads_once: reads one signal from the signalfd, leaving the others pending with nobody told
  while (::read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo < NSIG) delivered[info.ssi_signo] = true;
  }
  //@ instead
  if (::read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo < NSIG) delivered[info.ssi_signo] = true;
  }
  //@ end
  // The handler's path: empty the eventfd, then take the flags. In this
  // order: a delivery after the read sets its flag and writes again.
  //@ mutant capstone process_takes_flags_first: takes the flags, then empties the eventfd, so a delivery in between leaves its flag set and nothing to say so
  std::uint64_t count;
  [[maybe_unused]] ssize_t drained = ::read(wake_fd_, &count, sizeof count);
  for (int signo = 1; signo < NSIG; ++signo) {
    if (caught_[signo].exchange(false, std::memory_order_acquire)) delivered[signo] = true;  // acquire: pairs with the handler
  }
  //@ instead
  for (int signo = 1; signo < NSIG; ++signo) {
    if (caught_[signo].exchange(false, std::memory_order_acquire)) delivered[signo] = true;
  }
  std::uint64_t count;
  [[maybe_unused]] ssize_t drained = ::read(wake_fd_, &count, sizeof count);
  //@ end
  bool any = false;
  for (int signo = 1; signo < NSIG; ++signo) {
    if (!delivered[signo]) continue;
    generations_[signo].fetch_add(1, std::memory_order_release);  // release: a listener that sees it sees the delivery
    any = true;
  }
  //@ mutant capstone process_wakes_nobody: counts the deliveries but wakes no listener
  if (any) notify_.notify_waiters();  // after the generations: a woken listener finds its own
  //@ instead
  (void)any;
  //@ end
  //@ starter
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
  throw Todo("@NN@ process (@FILE@)");
  //@ end
}
//@ listing-end signal_process

}  // namespace rt::detail
