// Helpers for chapter 04's tests: counting wake-ups, and counting
// destructions and the threads they ran on.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>

#include "rt/rt.hpp"

namespace ch04 {

inline std::uint64_t total_unparks(const rt::Runtime& runtime) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < runtime.metrics().num_workers(); ++i) {
    sum += runtime.metrics().worker_unpark_count(i);
  }
  return sum;
}

// Counts, in `*destroyed`, the destruction of the one that lives in a
// coroutine frame (moved-from copies do not count), and remembers the
// thread it was destroyed on.
class Probe {
 public:
  explicit Probe(std::atomic<int>& destroyed, std::thread::id* where = nullptr)
      : destroyed_(&destroyed), where_(where) {}
  Probe(Probe&& other) noexcept
      : destroyed_(std::exchange(other.destroyed_, nullptr)), where_(other.where_) {}
  Probe& operator=(Probe&&) = delete;
  ~Probe() {
    if (!destroyed_) return;
    if (where_) *where_ = std::this_thread::get_id();
    destroyed_->fetch_add(1);  // seq_cst: published with *where_ to the test thread
  }

 private:
  std::atomic<int>* destroyed_;
  std::thread::id* where_;
};

}  // namespace ch04
