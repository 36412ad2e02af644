template <class TaskRef>
class RunQueue {
 public:
  void push(TaskRef task) {
    // TODO: append `task` to the back of the queue. Wakers call this from
    // any thread, so take the mutex.
    (void)task;
    throw Todo("01 run_queue push (rt/scheduler/run_queue.hpp)");
  }

  // The oldest task, or nothing when the queue is empty.
  std::optional<TaskRef> pop() {
    // TODO: take the task at the front of the queue, under the mutex.
    // Hint: std::deque::front then pop_front; std::nullopt when empty.
    throw Todo("01 run_queue pop (rt/scheduler/run_queue.hpp)");
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
