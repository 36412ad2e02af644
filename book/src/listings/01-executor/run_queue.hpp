template <class TaskRef>
class RunQueue {
 public:
  // Appends `task`; false (and nothing queued) once the queue is closed.
  bool push(TaskRef task) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    tasks_.push_back(std::move(task));
    return true;
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    std::lock_guard lock(mutex_);
    if (tasks_.empty()) return std::nullopt;
    TaskRef task = std::move(tasks_.front());
    tasks_.pop_front();
    return task;
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
