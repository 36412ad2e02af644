//@ file sync..
// Notify: wakes one waiting task, or all of them, with no data attached.
// Mirrors tokio/src/sync/notify.rs.
//
//   co_await notify.notified();   // waits for a notification
//   notify.notify_one();          // wakes the oldest waiter, or leaves a permit
//   notify.notify_waiters();      // wakes everyone waiting now, leaves nothing
//
// notify_one() with nobody waiting stores one permit (at most one: calling it
// twice stores one), and the next notified() takes it without waiting. That
// is what makes "check a condition, then wait" free of lost wake-ups.
//
// notify_waiters() wakes every Notified future that exists at the time of
// the call, even one that has not been polled yet (it remembers how many
// notify_waiters() calls it was created after), and stores no permit.
//
// Tokio keeps the permit and the notify_waiters() count in one atomic word,
// so notify_one() with no waiters and a notified() that finds the permit
// never lock. Here one mutex guards everything.
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>

#include "rt/loom.hpp"
#include "rt/sync/wait_list.hpp"
#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt {

class Notify {
  // Waiter::granted: how a queued waiter was woken.
  static constexpr int by_notify_one = 1;
  static constexpr int by_notify_waiters = 2;

 public:
  Notify() = default;
  Notify(const Notify&) = delete;
  Notify& operator=(const Notify&) = delete;

  // The future of one wait. Waiting starts on its first poll; a
  // notify_waiters() call after it was created wakes it all the same.
  class [[nodiscard]] Notified : public Leaf<Notified> {
   public:
    explicit Notified(Notify& notify) : notify_(notify), calls_(notify.waiters_calls()) {}
    Notified(const Notified&) = delete;
    Notified& operator=(const Notified&) = delete;
    ~Notified() { notify_.cancel(*this); }

    bool poll(Context& cx) override { return notify_.poll_notified(*this, cx); }
//@ chapters coop..
    bool cooperative() const override { return true; }  // spends the task's budget
//@ end
    void await_resume() const noexcept {}

   private:
    friend class Notify;
    Notify& notify_;
    std::uint64_t calls_;  // notify_waiters() calls before this was created
    detail::Waiter waiter_;
    bool done_ = false;
  };

  Notified notified() { return Notified(*this); }

  void notify_one();

  void notify_waiters();

 private:
  std::uint64_t waiters_calls();

  bool poll_notified(Notified& notified, Context& cx);

  // A Notified is destroyed, maybe while queued, maybe woken but not yet
  // polled. A notify_one() it never used goes to the next waiter, as Tokio's
  // Notified::drop does; a notify_waiters() was for everyone, and is dropped.
  void cancel(Notified& notified);

  loom::mutex mutex_;
  detail::WaitList waiters_;
  bool permit_ = false;
  std::uint64_t waiters_calls_ = 0;
};

}  // namespace rt
