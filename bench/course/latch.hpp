// Latch: a count that tasks count down and that one task awaits. It stands
// for the std::sync::mpsc channel Tokio's benchmarks block on to learn that
// every task ran; awaited instead of blocked on, it also works on a
// current-thread runtime, where blocking the only thread would deadlock.
// Built only on the public API (rt::Leaf, rt::Waker), so every chapter has it.
#pragma once

#include <atomic>
#include <mutex>
#include <utility>

#include "rt/rt.hpp"

namespace bench::course {

class Latch {
 public:
  explicit Latch(long count) : remaining_(count) {}
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;

  void count_down() {
    // acq_rel: the last count_down sees what every earlier task wrote.
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    rt::Waker waiter;
    {
      // `done_` is set under the mutex, so a waiter that sees it can only
      // destroy the latch after this unlock: nothing here touches it after.
      std::lock_guard lock(mutex_);
      done_ = true;
      waiter = std::move(waiter_);
    }
    waiter.wake();
  }

  // `co_await latch.wait()`: ready once the count reached zero.
  class Wait : public rt::Leaf<Wait> {
   public:
    explicit Wait(Latch& latch) : latch_(latch) {}
    bool poll(rt::Context& cx) override {
      std::lock_guard lock(latch_.mutex_);
      if (latch_.done_) return true;
      latch_.waiter_ = cx.waker();  // woken spuriously or not: keep the newest
      return false;
    }
    void await_resume() const noexcept {}

   private:
    Latch& latch_;
  };
  Wait wait() { return Wait(*this); }

 private:
  std::atomic<long> remaining_;
  std::mutex mutex_;
  bool done_ = false;  // guarded by mutex_
  rt::Waker waiter_;   // guarded by mutex_
};

}  // namespace bench::course
