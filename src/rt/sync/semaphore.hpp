//@ file sync..
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
    ~Acquire() {
      // Done: no longer queued, and nothing handed to it unused. Only its
      // own task writes done_, so no lock is needed to read it, and a
      // channel's send, which ends this way, takes the lock once less.
      if (!done_) semaphore_.cancel(*this);
    }

    Outcome poll(Context& cx) { return semaphore_.poll_acquire(*this, cx); }

   private:
    friend class Semaphore;
    Semaphore& semaphore_;
    Waiter waiter_;          // waiter_.granted: release() handed it a permit
    bool done_ = false;      // poll reported acquired or closed
  };

  Acquire acquire() { return Acquire(*this); }

  // A permit now, or false; never queues.
  bool try_acquire();

  void release(std::size_t permits = 1);

  // Fails every waiter and every later acquire. Permits still held stay
  // valid, and release() still takes them back.
  void close();

  bool is_closed();

  std::size_t available_permits();

 private:
  Outcome poll_acquire(Acquire& acquire, Context& cx);

  // One permit comes back: it goes to the oldest waiter if there is one,
  // else to the pool. Called with mutex_ held; the waker goes in `wake`.
  // Never in the pool while somebody waits, not even for an instant: a task
  // calling try_acquire() right then would barge past the queue.
  void release_one(WakeList& wake);

  // An Acquire is being destroyed, perhaps while its task still waits.
  void cancel(Acquire& acquire);

  std::mutex mutex_;
  std::size_t permits_;
  bool closed_ = false;
  WaitList waiters_;
};

}  // namespace rt::detail
