//@ file capstone..
// SignalRegistry: the process's signals, as the runtime hears them. Mirrors
// tokio/src/signal/registry.rs (the global registry of what was delivered)
// with Linux's signalfd in place of Tokio's self-pipe.
//
// Signals belong to the process, not to a runtime: one registry for all,
// one generation counter per signal (bumped by each delivery), and one
// Notify that wakes every listener of any runtime, which then compares
// generations.
//
// How a delivery reaches it. A signalfd reads the signals that are pending
// for the process, and a signal stays pending only while every thread
// blocks it; a thread that does not block it gets it at once. So both
// paths lead here:
//   - listen() blocks the signal in the calling thread and adds it to the
//     signalfd's mask: when every thread blocks it, the signalfd is
//     readable, and the runtime's I/O driver says so (driver.hpp);
//   - a handler catches it on any thread that does not block it, records
//     it in a flag and writes an eventfd that the same driver watches.
//     Only async-signal-safe calls: an atomic store and write(2).
#pragma once

#include <signal.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "rt/loom.hpp"
#include "rt/sync/notify.hpp"

namespace rt::detail {

class SignalRegistry {
 public:
  static SignalRegistry& instance();

  // From now on `signo` is heard: handled on every thread, blocked on the
  // caller's, read by the signalfd. Throws std::invalid_argument for a
  // signal that cannot be caught (SIGKILL, SIGSTOP) or is out of range.
  void listen(int signo);

  // Whoever saw one of the two descriptors readable: reads every pending
  // signal from the signalfd, takes the flags the handler set, and for each
  // signal delivered bumps its generation and wakes the listeners.
  void process();

  // Deliveries of `signo` so far.
  std::uint64_t generation(int signo) const {
    return generations_[signo].load(std::memory_order_acquire);  // acquire: pairs with process()'s release
  }
  Notify& notify() { return notify_; }

  int signal_fd() const { return signal_fd_; }
  int wake_fd() const { return wake_fd_; }

 private:
  // The model tests (tests/12-capstone/model) run the handler on a thread
  // of their own, as a signal caught there would.
  friend struct SignalRegistryModelAccess;

  SignalRegistry();
  static void handle(int signo);

  loom::mutex mutex_;  // listen()'s changes, and one process() at a time
  sigset_t listened_;
  int signal_fd_;  // non-blocking
  int wake_fd_;    // an eventfd, non-blocking: the handler's path
  std::array<loom::atomic<bool>, NSIG> caught_{};  // set by the handler
  std::array<loom::atomic<std::uint64_t>, NSIG> generations_{};
  Notify notify_;
};

}  // namespace rt::detail
