template <class TaskRef>
class RunQueue {
 public:
  // Appends `task`; false (and nothing queued) once the queue is closed.
  bool push(TaskRef task) {
    // TODO: append `task` to the back of the queue and return true, unless
    // the queue is closed (the runtime has shut down): then return false.
    // Wakers call this from any thread, so take the mutex.
    // Hint: why must `closed_` be read under the same mutex as the push?
    // Think of a wake from another thread racing the runtime's shutdown.
    (void)task;
    throw Todo("2 of chapter 01 (run_queue: push, in rt/scheduler/run_queue.hpp)");
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    // TODO: take the task at the front of the queue, under the mutex.
    // Hint: std::deque::front then pop_front; std::nullopt when empty.
    throw Todo("2 of chapter 01 (run_queue: pop, in rt/scheduler/run_queue.hpp)");
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
