//@ file threads..
// Counter: a statistic that one writer at a time counts (one thread, or
// whoever holds the lock that guards it) and any thread may read, as
// RuntimeMetrics does. Mirrors how Tokio's workers keep their counts in a
// MetricsBatch of their own and publish them with relaxed stores.
//
// Why not fetch_add: with one writer, a load and a store lose nothing, and
// a read-modify-write is a locked instruction on x86, paid on every poll.
#pragma once

#include <atomic>
#include <cstdint>

#include "rt/loom.hpp"

namespace rt::detail {

class Counter {
 public:
  // Only the one writer calls this: the thread that owns the count, or the
  // holder of its lock.
  void add(std::uint64_t n = 1) noexcept {
    // Relaxed: a statistic orders nothing.
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::uint64_t load() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  loom::atomic<std::uint64_t> value_{0};
};

}  // namespace rt::detail
