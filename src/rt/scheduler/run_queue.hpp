// RunQueue: the tasks that are ready to be polled, first in, first out.
//
// The simplest queue that can work: a std::deque behind a mutex, so that a
// waker on any thread can push while the runtime's thread pops. Tokio's
// current-thread scheduler keeps a similar queue (a VecDeque) for its own
// thread, plus an injection queue for other threads; chapter 05 replaces
// this one with a lock-free ring per worker.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "rt/loom.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Called, when set, by this thread just before it locks a run queue's
// mutex. Lets a test hold a wake from another thread at the door of the
// queue while the runtime shuts down, the interleaving that decides
// whether push reads `closed_` under the mutex (see QueueMutex).
inline thread_local void (*before_run_queue_locks)() = nullptr;
#define RT_HAS_RUN_QUEUE_HOOK 1  // tests look for the hook with this

// A std::mutex that calls before_run_queue_locks first. Used exactly as
// one (std::lock_guard lock(mutex_)); the hook is for tests only.
class QueueMutex {
 public:
  void lock() {
    if (before_run_queue_locks) before_run_queue_locks();
    mutex_.lock();
  }
  bool try_lock() { return mutex_.try_lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  loom::mutex mutex_;
};

//@ listing run_queue
template <class TaskRef>
class RunQueue {
 public:
  // Appends `task`; false (and nothing queued) once the queue is closed.
  bool push(TaskRef task) {
    //@ exercise executor run_queue
    //@ mutant executor push_reads_closed_unlocked: reads closed_ before taking the mutex, so a wake racing the shutdown queues its task after close() emptied the queue, and the task and the runtime keep each other alive
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    //@ instead
    if (closed_) return false;
    std::lock_guard lock(mutex_);
    //@ end
    tasks_.push_back(std::move(task));
    return true;
    //@ starter
    // TODO: append `task` to the back of the queue and return true, unless
    // the queue is closed (the runtime has shut down): then return false.
    // Wakers call this from any thread, so take the mutex.
    // Hint: why must `closed_` be read under the same mutex as the push?
    // Think of a wake from another thread racing the runtime's shutdown.
    (void)task;
    throw Todo("@NN@ run_queue push (@FILE@)");
    //@ end
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    //@ exercise executor run_queue
    std::lock_guard lock(mutex_);
    if (tasks_.empty()) return std::nullopt;
    TaskRef task = std::move(tasks_.front());
    tasks_.pop_front();
    return task;
    //@ starter
    // TODO: take the task at the front of the queue, under the mutex.
    // Hint: std::deque::front then pop_front; std::nullopt when empty.
    throw Todo("@NN@ run_queue pop (@FILE@)");
    //@ end
  }

  // At shutdown: refuses every later push, and hands over what is queued.
  // Checked under the mutex, a wake racing the shutdown either lands
  // before this (and is handed over) or is refused: never left behind in a
  // queue nobody empties, where the task and the runtime would keep each
  // other alive.
  std::deque<TaskRef> close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    return std::exchange(tasks_, {});
  }

 private:
  QueueMutex mutex_;  // a loom::mutex, with a hook for tests
  std::deque<TaskRef> tasks_;
  bool closed_ = false;
};
//@ listing-end run_queue

}  // namespace rt::detail
