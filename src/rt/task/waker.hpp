// Waker and Context: how a waiting task asks to be polled again.
//
// Mirrors std::task::Waker and std::task::Context, which Tokio's tasks are
// built on. A leaf future that cannot finish yet clones the waker it is
// handed and keeps it; whoever makes progress possible later calls wake().
//
// In this chapter a waker is a shared pointer to something wakeable: simple,
// and safe. Chapter 02 replaces it with Tokio's raw waker: a pointer to the
// task's header plus a table of four functions.
#pragma once

#include <memory>
#include <utility>

namespace rt {

namespace detail {

// Anything a waker can wake: a spawned task, or the future block_on drives.
class Wakeable {
 public:
  virtual ~Wakeable() = default;
  virtual void wake() = 0;
};

}  // namespace detail

class Waker {
 public:
  Waker() = default;  // a waker that wakes nothing
  explicit Waker(std::shared_ptr<detail::Wakeable> target) : target_(std::move(target)) {}

  // Wakes the task and gives up this waker (Rust's `wake(self)`).
  void wake() {
    if (auto target = std::move(target_)) target->wake();
  }
  // Wakes the task and keeps this waker.
  void wake_by_ref() const {
    if (target_) target_->wake();
  }
  // True when both wake the same task: lets a leaf skip replacing a waker.
  bool will_wake(const Waker& other) const { return target_ == other.target_; }
  explicit operator bool() const { return target_ != nullptr; }

 private:
  std::shared_ptr<detail::Wakeable> target_;
};

// What a poll hands to the leaf it polls. Leaves clone the waker to keep it.
class Context {
 public:
  explicit Context(const Waker& waker) : waker_(waker) {}
  const Waker& waker() const { return waker_; }

 private:
  const Waker& waker_;
};

}  // namespace rt
