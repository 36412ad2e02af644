template <class TaskRef>
class RunQueue {
 public:
  void push(TaskRef task) {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    std::lock_guard lock(mutex_);
    if (tasks_.empty()) return std::nullopt;
    TaskRef task = std::move(tasks_.front());
    tasks_.pop_front();
    return task;
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
