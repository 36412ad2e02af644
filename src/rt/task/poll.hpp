// Leaf futures, and the poll that drives a coroutine chain.
//
// Rust polls a future; a C++ coroutine can only be resumed. The course
// joins the two: the runtime *polls* a task, and a poll resumes the task's
// coroutines only once the leaf they wait on says it is ready. A leaf (a
// channel receive, a sleep, a socket's readiness, yield_now) is a small
// Rust-style future: poll(cx) returns true when ready, or keeps cx's waker
// and returns false. A wake-up may be spurious, so a poll asks the leaf
// again before resuming anything: a leaf never sees an await_resume early.
// This is Tokio's Harness::poll, for futures that are coroutines.
#pragma once

#include <coroutine>
#include <stdexcept>

#include "rt/task/context.hpp"
#include "rt/task/waker.hpp"

namespace rt {

namespace detail {

class PromiseBase;  // rt/task/task.hpp

class LeafBase {
 public:
  virtual ~LeafBase() = default;
  virtual bool poll(Context& cx) = 0;
//@ chapters coop..
  // A runtime resource (a channel, a lock, a JoinHandle...): its polls
  // spend the task's budget (rt/task/coop.hpp).
  virtual bool cooperative() const { return false; }
//@ end
};

// The state of one running chain of coroutines: where to resume it, and
// which leaf must be ready first.
class Poller {
 public:
  // `root` is a Task's handle: its promise is where a failure is kept.
  template <class Promise>
  explicit Poller(std::coroutine_handle<Promise> root)
      : root_(root), resume_at_(root), promise_(&root.promise()) {}

  // Polls once; true when the outermost coroutine has finished, or has
  // failed: a leaf threw when polled again, and the root's result is now
  // that exception (the chain's frames are destroyed with the root's).
  bool poll(Context& cx);
  // Called by a leaf that suspends the chain: resume `at` once `leaf` is ready.
  void suspend_on(LeafBase& leaf, std::coroutine_handle<> at) {
    leaf_ = &leaf;
    resume_at_ = at;
  }

 private:
  std::coroutine_handle<> root_;
  std::coroutine_handle<> resume_at_;
  LeafBase* leaf_ = nullptr;
  PromiseBase* promise_;
  bool failed_ = false;
//@ chapters coop..

 public:
  // rt::coop::unconstrained(...) scopes in the chain that are running.
  void enter_unconstrained() { ++unconstrained_; }
  void leave_unconstrained() { --unconstrained_; }
  bool is_unconstrained() const { return unconstrained_ > 0; }

 private:
  int unconstrained_ = 0;
//@ end
};

// The poll in progress on this thread: what a leaf's co_await reaches for.
struct CurrentPoll {
  Poller* poller = nullptr;
  Context* cx = nullptr;
};
inline thread_local CurrentPoll current_poll;

inline CurrentPoll& this_poll() {
  if (!current_poll.poller) throw std::logic_error("a leaf future was awaited outside a task's poll");
  return current_poll;
}
//@ chapters coop..

}  // namespace detail

namespace coop::detail {
// Polls a runtime resource through the task's budget (rt/task/coop.cpp).
bool poll_cooperatively(rt::detail::LeafBase& leaf, Context& cx);
}  // namespace coop::detail

namespace detail {

//@ listing poll_leaf
// Polls `leaf`, through the task's budget if it is a runtime resource.
// Every await of a leaf passes here: inline, so that a leaf that is not a
// resource pays nothing for the budget.
inline bool poll_leaf(LeafBase& leaf, Context& cx) {
  if (!leaf.cooperative()) return leaf.poll(cx);
  return coop::detail::poll_cooperatively(leaf, cx);
}
//@ listing-end poll_leaf
//@ end

}  // namespace detail

//@ listing leaf
// Base of every leaf awaitable: `co_await leaf` polls it once right away and,
// if it is not ready, suspends the whole chain on it. Derived classes
// implement `bool poll(Context&)` and `await_resume()`.
template <class Derived>
class Leaf : public detail::LeafBase {
 public:
//@ chapters ..lifo-slot
  bool await_ready() { return static_cast<Derived&>(*this).poll(*detail::this_poll().cx); }
//@ else
  bool await_ready() { return detail::poll_leaf(*this, *detail::this_poll().cx); }
//@ end
  void await_suspend(std::coroutine_handle<> at) { detail::this_poll().poller->suspend_on(*this, at); }
};
//@ listing-end leaf

}  // namespace rt
