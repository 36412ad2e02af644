// OwnedTasks: every task a runtime has spawned and not yet finished. Mirrors
// Tokio's OwnedTasks (runtime/task/list.rs).
//
// A task waiting for a wake-up that never comes is referenced only by the
// waker somebody holds, or by nobody at all. The runtime still has to find
// it to destroy it at shutdown: this list is how.
//@ chapters 2-
//
// Like Tokio's, the list is intrusive: the links are in each task's header,
// so adding a task allocates nothing. The list holds one reference to each
// task in it.
//@ end
#pragma once

//@ chapters -1
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rt::detail {

template <class Task>
class OwnedTasks {
 public:
  // Adds a new task; false once the runtime has shut down.
  bool bind(std::shared_ptr<Task> task) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    Task* key = task.get();
    tasks_.emplace(key, std::move(task));
    return true;
  }

  // Forgets a finished task.
  void remove(Task& task) {
    std::lock_guard lock(mutex_);
    tasks_.erase(&task);
  }

  // Refuses new tasks and hands over the live ones, to be destroyed.
  std::vector<std::shared_ptr<Task>> close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    std::vector<std::shared_ptr<Task>> live;
    for (auto& [key, task] : tasks_) live.push_back(std::move(task));
    tasks_.clear();
    return live;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<Task*, std::shared_ptr<Task>> tasks_;
  bool closed_ = false;
};

}  // namespace rt::detail
//@ else
#include <mutex>

#include "rt/task/header.hpp"

namespace rt::detail {

// ANCHOR: owned_tasks
class OwnedTasks {
 public:
  // Adds a new task, with its reference; false once the runtime has shut down.
  bool bind(Header* task) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    task->owned_prev = nullptr;
    task->owned_next = head_;
    if (head_) head_->owned_prev = task;
    head_ = task;
    return true;
  }

  // Unlinks a completed task; true when it was still here, which hands
  // the list's reference to the caller.
  bool remove(Header& task) {
    std::lock_guard lock(mutex_);
    if (head_ != &task && task.owned_prev == nullptr) return false;  // not linked
    unlink(task);
    return true;
  }

  // Refuses new tasks from now on.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }

  // Unlinks some task and hands it over with the list's reference, or
  // nullptr when the list is empty: for shutdown.
  Header* pop() {
    std::lock_guard lock(mutex_);
    Header* task = head_;
    if (task) unlink(*task);
    return task;
  }

 private:
  void unlink(Header& task) {
    if (task.owned_prev) task.owned_prev->owned_next = task.owned_next;
    else head_ = task.owned_next;
    if (task.owned_next) task.owned_next->owned_prev = task.owned_prev;
    task.owned_prev = task.owned_next = nullptr;
  }

  std::mutex mutex_;
  Header* head_ = nullptr;
  bool closed_ = false;
};
// ANCHOR_END: owned_tasks

}  // namespace rt::detail
//@ end
