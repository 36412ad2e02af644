//@ file sync..
// WaitList: the queue of waiters every primitive of this chapter keeps.
// Mirrors tokio/src/util/linked_list.rs, the intrusive list that Tokio's
// Notify and batch semaphore thread through their waiters.
//
// Intrusive: the node lives inside the waiting leaf future (so inside the
// waiting coroutine's frame), and the list only links nodes together. No
// allocation to wait, and a leaf that is destroyed unlinks itself in O(1).
// The list is not thread-safe: its owner guards it with its own mutex. Its
// ends are loom::UnsafeCells (plain pointers in a normal build), so that
// under the model checker a touch of the list outside that mutex is a data
// race it reports.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
//@ mutant sync wake_list_allocates: collects the wakers in a growing std::vector, as many as there are: waking allocates under the primitive's mutex, where a bad_alloc would lose a waker
#include <utility>
//@ instead
#include <utility>
#include <vector>
//@ end

#include "rt/loom.hpp"
#include "rt/task/context.hpp"
#include "rt/task/waker.hpp"

namespace rt::detail {

//@ listing waiter
// One waiter: the waker to call, and its place in the queue. The primitive
// that owns the list decides what else a waiter carries.
struct Waiter {
  Waker waker;
  bool queued = false;  // linked into a WaitList right now
  // What the list's owner handed this waiter when it took it off the list
  // (a permit, a notification); 0 while nothing. The owner says what it means.
  int granted = 0;
  // What the owner wants to remember of when the waiter came (Notify: the
  // notify_waiters() calls made before it queued).
  std::uint64_t tag = 0;
  Waiter* prev = nullptr;
  Waiter* next = nullptr;

  // Keeps the waker the latest poll was handed, replacing the stored one only
  // when it would wake some other task (a task can move between threads and
  // polls, as Tokio's AtomicWaker allows for). Returns the waker it replaced,
  // for the caller to drop after unlocking: dropping a waker can drop the
  // last reference to a task.
  Waker register_waker(const Context& cx) {
    if (waker.will_wake(cx.waker())) return Waker();
    return std::exchange(waker, cx.waker());
  }
};
//@ listing-end waiter

// First in, first out; every operation is O(1).
class WaitList {
 public:
  WaitList() = default;
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;

  bool empty() const { return head_.read() == nullptr; }
  Waiter* front() const { return head_.read(); }

  void push_back(Waiter& waiter) {
    Waiter* tail = tail_.read();
    waiter.prev = tail;
    waiter.next = nullptr;
    if (tail) {
      tail->next = &waiter;
    } else {
      head_.write(&waiter);
    }
    tail_.write(&waiter);
    waiter.queued = true;
  }

  // The oldest waiter, unlinked; nullptr when there is none.
  Waiter* pop_front() {
    Waiter* waiter = head_.read();
    if (waiter) remove(*waiter);
    return waiter;
  }

  // Unlinks a queued waiter, wherever it is in the queue.
  void remove(Waiter& waiter) {
    if (!waiter.queued) return;
    if (waiter.prev) {
      waiter.prev->next = waiter.next;
    } else {
      head_.write(waiter.next);
    }
    if (waiter.next) {
      waiter.next->prev = waiter.prev;
    } else {
      tail_.write(waiter.prev);
    }
    waiter.prev = waiter.next = nullptr;
    waiter.queued = false;
  }

 private:
  loom::UnsafeCell<Waiter*> head_{nullptr};
  loom::UnsafeCell<Waiter*> tail_{nullptr};
};

// Wakers collected under a lock, to be called once it is released: a wake
// runs scheduler code, and must not run with the primitive's mutex held.
// Declare it before the lock guard, and its destructor wakes them after the
// guard has unlocked. Like Tokio's WakeList it holds at most 32, on the
// stack: collecting allocates nothing under the lock (and so cannot fail
// there, losing a waker). Whoever has more to wake unlocks, wakes these,
// locks again and goes on.
class WakeList {
 public:
  static constexpr std::size_t kCapacity = 32;

  WakeList() {}  // leaves the slots raw: see slots_
  WakeList(const WakeList&) = delete;
  WakeList& operator=(const WakeList&) = delete;
  ~WakeList() { wake_all(); }

  //@ mutant sync wake_list_allocates: collects the wakers in a growing std::vector, as many as there are: waking allocates under the primitive's mutex, where a bad_alloc would lose a waker
  //@ mutant sync wake_list_drops_overflow: never says it is full, and drops the wakers that do not fit: only the first batch is woken
  bool can_push() const { return count_ < kCapacity; }
  void push(Waker waker) {  // requires can_push()
    std::construct_at(&slots_[count_++].waker, std::move(waker));
  }
  //@ instead
  bool can_push() const { return true; }
  void push(Waker waker) {
    if (count_ < kCapacity) std::construct_at(&slots_[count_++].waker, std::move(waker));
  }
  //@ end
  void wake_all() {
    for (std::size_t i = 0; i < count_; ++i) {
      Waker waker = std::move(slots_[i].waker);
      std::destroy_at(&slots_[i].waker);
      waker.wake();
    }
    count_ = 0;
  }

 private:
  // Raw slots, as Tokio's are MaybeUninit: only the first count_ hold a
  // Waker. A semaphore's release makes and destroys a WakeList for every
  // permit, and 32 Wakers built and destroyed each time were most of its
  // cost (measured with perf on ping_pong).
  union Slot {
    Slot() {}
    ~Slot() {}
    Waker waker;
  };
  std::array<Slot, kCapacity> slots_;
  std::size_t count_ = 0;
  //@ instead
  bool can_push() const { return true; }
  void push(Waker waker) { wakers_.push_back(std::move(waker)); }
  void wake_all() {
    for (auto& waker : wakers_) waker.wake();
    wakers_.clear();
  }

 private:
  std::vector<Waker> wakers_;
  //@ end
};

}  // namespace rt::detail
