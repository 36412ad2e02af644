// OwnedTasks: every task a runtime has spawned and not yet finished. Mirrors
// Tokio's OwnedTasks (runtime/task/list.rs).
//
// A task waiting for a wake-up that never comes is referenced only by the
// waker somebody holds, or by nobody at all. The runtime still has to find
// it to destroy it at shutdown: this list is how.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rt/loom.hpp"

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
  loom::mutex mutex_;
  std::unordered_map<Task*, std::shared_ptr<Task>> tasks_;
  bool closed_ = false;
};

}  // namespace rt::detail
