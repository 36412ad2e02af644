//@ file capstone..
// CancellationToken: one "stop now" that many tasks wait on. Mirrors
// tokio_util::sync::CancellationToken (tokio-util/src/sync/
// cancellation_token.rs), the token Tokio's own guides use for graceful
// shutdown.
//
//   rt::CancellationToken token;
//   rt::spawn(serve(token.child_token()));   // each task waits on a child
//   co_await rt::signal::ctrl_c();
//   token.cancel();                           // every waiter wakes
//
// Copies share one state. Cancelling is for ever, and cancels every child
// token too; cancelling a child leaves its parent alone. The waiting is a
// Notify's notify_waiters(): it wakes every cancelled() that exists at the
// time, even one not yet polled, and the flag, set before the notify,
// answers every cancelled() made after it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "rt/loom.hpp"
#include "rt/sync/notify.hpp"
#include "rt/task/poll.hpp"

namespace rt {

namespace detail {

struct CancellationState {
  loom::atomic<bool> cancelled{false};
  Notify notify;
  loom::mutex mutex;  // guards children, and the moment of cancelling them
  std::vector<std::weak_ptr<CancellationState>> children;
};

}  // namespace detail

class CancellationToken {
 public:
  CancellationToken() : state_(std::make_shared<detail::CancellationState>()) {}

  // Cancels this token and all its children; wakes every waiter. Calling
  // it again does nothing.
  void cancel() const;
  bool is_cancelled() const { return state_->cancelled.load(std::memory_order_acquire); }  // acquire: see what the canceller did first

  // A token cancelled with this one (or on its own).
  CancellationToken child_token() const;

  // The future of one wait: ready once the token is cancelled.
  class [[nodiscard]] WaitForCancellation : public Leaf<WaitForCancellation> {
   public:
    explicit WaitForCancellation(std::shared_ptr<detail::CancellationState> state) : state_(std::move(state)) {}
    WaitForCancellation(const WaitForCancellation&) = delete;
    WaitForCancellation& operator=(const WaitForCancellation&) = delete;

    bool poll(Context& cx) override;
    void await_resume() const noexcept {}

   private:
    std::shared_ptr<detail::CancellationState> state_;
    std::optional<Notify::Notified> notified_;  // the wait in progress
  };

  // `co_await token.cancelled()`, or a leaf for rt::select.
  WaitForCancellation cancelled() const { return WaitForCancellation(state_); }

 private:
  explicit CancellationToken(std::shared_ptr<detail::CancellationState> state) : state_(std::move(state)) {}

  std::shared_ptr<detail::CancellationState> state_;
};

namespace detail {

// A test hook: runs in WaitForCancellation::poll between making its
// Notified and looking at the flag, so that a test can cancel exactly
// there. Empty in normal use.
inline loom::atomic<void (*)()> after_notified_made{nullptr};

}  // namespace detail

}  // namespace rt
