//@ file threads..
// Inject: the global injection queue, where every task goes that is
// spawned or woken, from any thread, and where every worker takes its next
// task. Mirrors Tokio's runtime/scheduler/inject (the queue behind the
// scheduler's mutex; Tokio's workers also have the local queues of chapter
// 05, which this chapter does not yet have). The current-thread scheduler
// has a queue of its own already: only what is spawned or woken outside
// it comes through here.
//
// Intrusive, like chapter 02's run queue: the link is each task's
// queue_next, so queueing allocates nothing, and each entry holds one
// reference (a Notified). Its length is also kept in an atomic, so that a
// worker about to sleep and a spawner deciding whether to wake one can
// read it without taking the lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "rt/loom.hpp"
#include "rt/task/header.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class Inject {
 public:
  // Appends a Notified; false (and nothing queued) once closed.
  bool push(Header* task);

  // The oldest Notified, or nullptr when the queue is empty (or closed).
  Header* pop();

  // Every Notified queued, oldest first, as a chain linked through
  // queue_next (its last one in `last`), under one lock; nullptr when the
  // queue is empty (or closed). The current-thread scheduler moves them to
  // its own queue.
  Header* take_all(Header*& last);

//@ chapters local-queues..
  // Appends a chain of `count` Notifieds, `first` to `last`, linked
  // through queue_next, under one lock. Once closed, it gives up their
  // references instead (Tokio's push_batch does the same).
  void push_batch(Header* first, Header* last, std::size_t count);

  // Up to `count` of the oldest Notifieds, as a chain linked through
  // queue_next (the last one's is nullptr), under one lock; nullptr when
  // the queue is empty.
  Header* pop_n(std::size_t count);

//@ end

  // Read without the lock. seq_cst: it pairs with the idle-worker count
  // (see multi_thread/idle.hpp), so that a push and a worker going to
  // sleep cannot both miss each other.
  std::size_t len() const { return len_.load(std::memory_order_seq_cst); }
  bool is_empty() const { return len() == 0; }

  // At shutdown: refuses every later push and hands over what is queued,
  // as a chain linked through queue_next.
  Header* close();
  bool is_closed() const;

  // How often a thread found the mutex taken and had to wait for it: what
  // one global queue costs when many threads share it.
  std::uint64_t lock_waits() const { return lock_waits_.load(std::memory_order_relaxed); }

 private:
  // Takes the mutex, counting a wait when it is held by another thread.
  std::unique_lock<loom::mutex> lock() const;

  mutable loom::mutex mutex_;
  Header* head_ = nullptr;
  Header* tail_ = nullptr;
  bool closed_ = false;
  loom::atomic<std::size_t> len_{0};  // written under the mutex, read anywhere
  mutable loom::atomic<std::uint64_t> lock_waits_{0};
};

}  // namespace rt::detail
