// RunQueue: the tasks that are ready to be polled, first in, first out.
//
//@ chapters -1
// The simplest queue that can work: a std::deque behind a mutex, so that a
// waker on any thread can push while the runtime's thread pops. Tokio's
// current-thread scheduler keeps a similar queue (a VecDeque) for its own
// thread, plus an injection queue for other threads; chapter 05 replaces
// this one with a lock-free ring per worker.
//@ else
// A linked list behind a mutex, so that a waker on any thread can push
// while the runtime's thread pops. Like Tokio's injection queue it is
// intrusive: the link is in each task's header (queue_next), so queueing a
// task allocates nothing. Each entry is a Notified: it holds one reference
// to its task. Chapter 05 adds a lock-free ring per worker.
//@ end
#pragma once

//@ chapters -1
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "rt/todo.hpp"

namespace rt::detail {

// ANCHOR: run_queue
template <class TaskRef>
class RunQueue {
 public:
  void push(TaskRef task) {
    //@ exercise 1 run_queue
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    //@ starter
    // TODO: append `task` to the back of the queue. Wakers call this from
    // any thread, so take the mutex.
    (void)task;
    throw Todo("01 run_queue push (rt/scheduler/run_queue.hpp)");
    //@ end
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    //@ exercise 1 run_queue
    std::lock_guard lock(mutex_);
    if (tasks_.empty()) return std::nullopt;
    TaskRef task = std::move(tasks_.front());
    tasks_.pop_front();
    return task;
    //@ starter
    // TODO: take the task at the front of the queue, under the mutex.
    // Hint: std::deque::front then pop_front; std::nullopt when empty.
    throw Todo("01 run_queue pop (rt/scheduler/run_queue.hpp)");
    //@ end
  }

  // Everything still queued, for shutdown.
  std::deque<TaskRef> take_all() {
    std::lock_guard lock(mutex_);
    return std::exchange(tasks_, {});
  }

 private:
  std::mutex mutex_;
  std::deque<TaskRef> tasks_;
};
// ANCHOR_END: run_queue

}  // namespace rt::detail
//@ else
#include <mutex>
#include <utility>

#include "rt/task/header.hpp"

namespace rt::detail {

class RunQueue {
 public:
  // Appends a Notified; false (and nothing queued) once the queue is closed.
  bool push(Header* task) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    task->queue_next = nullptr;
    if (tail_) tail_->queue_next = task;
    else head_ = task;
    tail_ = task;
    return true;
  }

  // The oldest Notified, or nullptr when the queue is empty.
  Header* pop() {
    std::lock_guard lock(mutex_);
    Header* task = head_;
    if (!task) return nullptr;
    head_ = task->queue_next;
    if (!head_) tail_ = nullptr;
    task->queue_next = nullptr;
    return task;
  }

  // At shutdown: refuses every later push, and hands over what is queued,
  // as a chain linked through queue_next.
  Header* close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    tail_ = nullptr;
    return std::exchange(head_, nullptr);
  }

 private:
  std::mutex mutex_;
  Header* head_ = nullptr;
  Header* tail_ = nullptr;
  bool closed_ = false;
};

}  // namespace rt::detail
//@ end
