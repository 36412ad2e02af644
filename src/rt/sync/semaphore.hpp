//@ file 3-
// Semaphore: a count of permits, and a FIFO queue of tasks waiting for one.
// Mirrors tokio/src/sync/batch_semaphore.rs, which Tokio's bounded mpsc
// (one permit per free slot) and Mutex (one permit: the lock) are built on.
//
// Fair: release() hands a permit straight to the oldest waiter instead of
// putting it back in the pool, so a task that arrives later cannot barge
// past the queue. Hence the invariant, true whenever the mutex is free:
// permits are available only when nobody waits.
//
// Tokio acquires any number of permits at once (the "batch"), and its fast
// path is a compare-and-swap on an atomic count that takes the lock only to
// queue. This one hands out one permit per acquire and takes its mutex for
// everything: simpler to read, and correct on any number of threads.
#pragma once

#include <cstddef>
#include <mutex>
#include <utility>

#include "rt/sync/wait_list.hpp"
#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class Semaphore {
 public:
  explicit Semaphore(std::size_t permits) : permits_(permits) {}
  Semaphore(const Semaphore&) = delete;
  Semaphore& operator=(const Semaphore&) = delete;

  // What an acquire ended with.
  enum class Outcome { pending, acquired, closed };

  // The leaf future of one acquire, to embed in another leaf (mpsc's send,
  // Mutex's lock). Destroying it gives back a permit it was handed but never
  // reported, and unlinks it if it is still queued.
  class Acquire {
   public:
    explicit Acquire(Semaphore& semaphore) : semaphore_(semaphore) {}
    Acquire(const Acquire&) = delete;
    Acquire& operator=(const Acquire&) = delete;
    ~Acquire() { semaphore_.cancel(*this); }

    Outcome poll(Context& cx) { return semaphore_.poll_acquire(*this, cx); }

   private:
    friend class Semaphore;
    Semaphore& semaphore_;
    Waiter waiter_;          // waiter_.granted: release() handed it a permit
    bool done_ = false;      // poll reported acquired or closed
  };

  Acquire acquire() { return Acquire(*this); }

  // A permit now, or false; never queues.
  bool try_acquire() {
    std::lock_guard lock(mutex_);
    if (closed_ || permits_ == 0) return false;
    --permits_;
    return true;
  }

  void release(std::size_t permits = 1) {
    WakeList wake;  // destroyed last: wakes after the unlock
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < permits; ++i) release_one(wake);
  }

  // Fails every waiter and every later acquire. Permits still held stay
  // valid, and release() still takes them back.
  void close() {
    WakeList wake;
    std::lock_guard lock(mutex_);
    closed_ = true;
    while (Waiter* waiter = waiters_.pop_front()) wake.push(std::move(waiter->waker));
  }

  bool is_closed() {
    std::lock_guard lock(mutex_);
    return closed_;
  }

  std::size_t available_permits() {
    std::lock_guard lock(mutex_);
    return permits_;
  }

 private:
  // ANCHOR: poll_acquire
  Outcome poll_acquire(Acquire& acquire, Context& cx) {
    Waker replaced;  // destroyed after the unlock
    std::lock_guard lock(mutex_);
    Waiter& waiter = acquire.waiter_;
    //@ exercise 3 poll_acquire
    if (acquire.done_) return waiter.granted ? Outcome::acquired : Outcome::closed;
    if (waiter.granted) {  // release() handed us a permit while we waited
      acquire.done_ = true;
      return Outcome::acquired;
    }
    if (closed_) {
      waiters_.remove(waiter);
      acquire.done_ = true;
      return Outcome::closed;
    }
    if (!waiter.queued) {  // the first poll
      if (permits_ > 0) {  // nobody waits (the invariant), so nobody is passed
        --permits_;
        waiter.granted = 1;
        acquire.done_ = true;
        return Outcome::acquired;
      }
      waiters_.push_back(waiter);
    }
    // Queued, now or before: a spurious wake-up lands here too.
    replaced = waiter.register_waker(cx);
    return Outcome::pending;
    //@ starter
    // TODO: decide, under mutex_, what this acquire has come to:
    //  - a permit was handed to it (waiter.granted != 0): set acquire.done_
    //    and report acquired;
    //  - the semaphore is closed: report closed (done_ too);
    //  - first poll (not waiter.queued) and a permit is free: take it
    //    (set waiter.granted and done_ as release() would) and report acquired;
    //  - otherwise join the queue on the first poll (waiters_.push_back),
    //    keep cx's waker with waiter.register_waker(cx), report pending.
    // Hint: a poll may come without a wake-up (spurious), so a queued waiter
    // must not queue twice. And keep the returned old waker in `replaced`:
    // it is dropped after the unlock.
    (void)cx;
    (void)replaced;
    (void)waiter;
    throw Todo("03 poll_acquire (rt/sync/semaphore.hpp)");
    //@ end
  }
  // ANCHOR_END: poll_acquire

  // ANCHOR: release_one
  // One permit comes back: it goes to the oldest waiter if there is one,
  // else to the pool. Called with mutex_ held; the waker goes in `wake`.
  // Never in the pool while somebody waits, not even for an instant: a task
  // calling try_acquire() right then would barge past the queue.
  void release_one(WakeList& wake) {
    if (Waiter* waiter = waiters_.pop_front()) {
      waiter->granted = 1;  // the permit is now the waiter's
      wake.push(std::move(waiter->waker));
      return;
    }
    ++permits_;
  }
  // ANCHOR_END: release_one

  // ANCHOR: cancel
  // An Acquire is being destroyed, perhaps while its task still waits.
  void cancel(Acquire& acquire) {
    WakeList wake;
    std::lock_guard lock(mutex_);
    waiters_.remove(acquire.waiter_);
    // Handed a permit that nobody will use: pass it on, as Tokio's
    // Acquire::drop does, or the next waiter would wait for ever.
    if (acquire.waiter_.granted && !acquire.done_) release_one(wake);
  }
  // ANCHOR_END: cancel

  std::mutex mutex_;
  std::size_t permits_;
  bool closed_ = false;
  WaitList waiters_;
};

}  // namespace rt::detail
