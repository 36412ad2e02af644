//@ file wakers..sync
// The owned-tasks list's operations, compiled once per runtime; see
// owned_tasks.hpp.
#include "rt/scheduler/owned_tasks.hpp"

namespace rt::detail {

//@ listing owned_tasks
bool OwnedTasks::bind(Header* task) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  task->owned_prev = nullptr;
  task->owned_next = head_;
  if (head_) head_->owned_prev = task;
  head_ = task;
  return true;
}

bool OwnedTasks::remove(Header& task) {
  std::lock_guard lock(mutex_);
  if (head_ != &task && task.owned_prev == nullptr) return false;  // not linked
  unlink(task);
  return true;
}

void OwnedTasks::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void OwnedTasks::unlink(Header& task) {
  if (task.owned_prev) task.owned_prev->owned_next = task.owned_next;
  else head_ = task.owned_next;
  if (task.owned_next) task.owned_next->owned_prev = task.owned_prev;
  task.owned_prev = task.owned_next = nullptr;
}

Header* OwnedTasks::pop() {
  std::lock_guard lock(mutex_);
  Header* task = head_;
  if (task) unlink(*task);
  return task;
}
//@ listing-end owned_tasks

}  // namespace rt::detail
