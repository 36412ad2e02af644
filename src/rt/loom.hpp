// The runtime's synchronisation names: every atomic, lock, condition
// variable and thread of the runtime is reached through rt::loom, as
// Tokio's are through its crate::loom module. A normal build maps them to
// the standard types, so they cost nothing; a model build (-DRT_MODEL=1,
// the model tests) maps them to the course's model checker (model/ at the
// repository's root), which then decides every thread switch and which
// store each atomic load reads.
#pragma once

#if RT_MODEL

#include "model/sync.hpp"

namespace rt::loom {
using model::atomic;
using model::atomic_thread_fence;
using model::condition_variable;
using model::mutex;
using model::thread;
using model::UnsafeCell;
namespace this_thread = model::this_thread;
}  // namespace rt::loom

#else

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

namespace rt::loom {
using std::atomic;
using std::atomic_thread_fence;
using std::condition_variable;
using std::mutex;
using std::thread;
namespace this_thread = std::this_thread;

// A plain value that two threads touch only in turns, ordered by some
// atomic (a ring's slot, a task's output). Here, just the value; in a
// model build, every access is checked against the previous ones: two
// that no happens-before orders are a data race, reported with both
// places.
template <typename T>
class UnsafeCell {
 public:
  UnsafeCell() = default;
  explicit UnsafeCell(T value) : value_(std::move(value)) {}

  T read() const { return value_; }
  void write(T value) { value_ = std::move(value); }

  // For what is not copied whole: f gets a pointer to the value.
  template <typename F>
  decltype(auto) with(F&& f) const {
    return std::forward<F>(f)(&value_);
  }
  template <typename F>
  decltype(auto) with_mut(F&& f) {
    return std::forward<F>(f)(&value_);
  }

 private:
  T value_{};
};
}  // namespace rt::loom

#endif
