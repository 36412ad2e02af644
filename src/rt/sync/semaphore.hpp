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
// As in Tokio, the pool is an atomic word, and an acquire that finds a
// permit there takes it with one compare-and-swap, without the mutex: the
// common case of a channel with room, or a Mutex nobody holds. The mutex
// guards the queue. The word also says whether anybody waits, so that a
// release with nobody waiting is one compare-and-swap too; Tokio's release
// always takes the lock. Tokio also acquires any number of permits at once
// (the "batch"); this one hands out one.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <utility>

#include "rt/loom.hpp"
#include "rt/sync/wait_list.hpp"
#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Tests set this to run code between a fast path that found no permit and
// the lock that queues the acquire: the moment a release can slip in.
inline loom::atomic<void (*)()> semaphore_after_fast_path{nullptr};

class Semaphore {
 public:
  explicit Semaphore(std::size_t permits) : state_(permits * kPermit) {}
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
    // Only the acquiring task reads and writes waiting_ and done_: it may
    // look at them without the lock.
    Waiter waiter_;          // waiter_.granted: it holds a permit
    bool waiting_ = false;   // it joined the queue (and may have left it since)
    bool done_ = false;      // poll reported acquired or closed
  };

  Acquire acquire() { return Acquire(*this); }

  // A permit from the pool now, or false (none, or closed); never queues,
  // never locks.
  bool try_acquire();

  void release(std::size_t permits = 1);

  // Fails every waiter and every later acquire. Permits still held stay
  // valid, and release() still takes them back.
  void close();

  bool is_closed();

  std::size_t available_permits();

 private:
  Outcome poll_acquire(Acquire& acquire, Context& cx);

  // With mutex_ held, before queueing: takes a permit from the pool, or,
  // if there is none, marks the semaphore as waited on, so that every later
  // release takes the lock and finds the queue. One compare-and-swap does
  // both: no release can slip a permit into the pool between the look and
  // the mark. True: a permit taken.
  bool take_or_mark_waiting();

  // One permit comes back: it goes to the oldest waiter if there is one,
  // else to the pool. Called with mutex_ held; the waker goes in `wake`.
  // Never in the pool while somebody waits, not even for an instant: a task
  // calling try_acquire() right then would barge past the queue.
  void release_one(WakeList& wake);

  // Unlinks a waiter (the oldest, for pop_waiter), and clears kWaiting
  // when the queue is left empty. With mutex_ held.
  Waiter* pop_waiter();
  void unlink(Waiter& waiter);

  // An Acquire is being destroyed, perhaps while its task still waits.
  void cancel(Acquire& acquire);

  // One word, so that one load sees it all and one compare-and-swap
  // changes it only if nothing else did: the free permits times 4, plus
  // kWaiting while the queue is not empty, plus kClosed once closed.
  // The invariant, in the word: never permits and kWaiting at once.
  static constexpr std::size_t kClosed = 1;
  static constexpr std::size_t kWaiting = 2;
  static constexpr std::size_t kPermit = 4;
  loom::atomic<std::size_t> state_;

  loom::mutex mutex_;  // guards the queue, kWaiting and kClosed
  WaitList waiters_;
};

}  // namespace rt::detail
