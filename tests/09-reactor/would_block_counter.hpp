// WouldBlockCounter: counts, through the runtime's hook
// rt::detail::after_would_block, the system calls of one poll that would
// block after all (EAGAIN). A second one in the same poll throws, which ends
// the poll with that error: a stale readiness that is never cleared would
// make the poll spin on it for ever.
#pragma once

#include <atomic>
#include <stdexcept>

#include "rt/rt.hpp"
#include "scoped_hook.hpp"

namespace ch09 {

class WouldBlockCounter {
 public:
  WouldBlockCounter() : hook_(rt::detail::after_would_block, &count) {}

  void start() {
    would_blocks_ = 0;
    counting_ = true;
  }
  // The EAGAINs since start().
  int stop() {
    counting_ = false;
    return would_blocks_.load();
  }

 private:
  static void count(rt::detail::ScheduledIo&) {
    if (counting_.load() && would_blocks_.fetch_add(1) + 1 > 1) {
      throw std::runtime_error("the call would block again: its stale readiness was not cleared");
    }
  }

  static inline std::atomic<bool> counting_{false};
  static inline std::atomic<int> would_blocks_{0};
  rt_test::ScopedHook<void (*)(rt::detail::ScheduledIo&)> hook_;
};

}  // namespace ch09
