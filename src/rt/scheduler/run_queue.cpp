//@ file wakers..sync
// The run queue's operations, compiled once per runtime; see run_queue.hpp.
#include "rt/scheduler/run_queue.hpp"

namespace rt::detail {

bool RunQueue::push(Header* task) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  task->queue_next = nullptr;
  if (tail_) tail_->queue_next = task;
  else head_ = task;
  tail_ = task;
  return true;
}

Header* RunQueue::pop() {
  std::lock_guard lock(mutex_);
  Header* task = head_;
  if (!task) return nullptr;
  head_ = task->queue_next;
  if (!head_) tail_ = nullptr;
  task->queue_next = nullptr;
  return task;
}

Header* RunQueue::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  tail_ = nullptr;
  return std::exchange(head_, nullptr);
}

}  // namespace rt::detail
