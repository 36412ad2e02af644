// A spawned task: its coroutine, its output, and the waker of whoever joins
// it. Chapter 01's version of Tokio's task cell (runtime/task/core.rs).
//
// Here a task is shared by reference counting through std::shared_ptr: the
// run queue, each waker and the JoinHandle hold a reference. Chapter 02
// replaces it with Tokio's layout: one allocation, one atomic state word.
#pragma once

#include <atomic>
#include <coroutine>
#include <memory>
#include <mutex>
#include <utility>

#include "rt/loom.hpp"
#include "rt/task/output.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"
#include "rt/task/waker.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class TaskBase;
using TaskRef = std::shared_ptr<TaskBase>;

// The scheduler, as a task sees it.
class Schedule {
 public:
  virtual void schedule(TaskRef task) = 0;  // the task was woken: queue it
  virtual void release(TaskBase& task) = 0;  // the task finished: forget it

 protected:
  ~Schedule() = default;
};

// What every task has, whatever its coroutine returns.
class TaskBase : public Wakeable, public std::enable_shared_from_this<TaskBase> {
 public:
  TaskBase(std::shared_ptr<Schedule> scheduler, Poller poller)
      : scheduler_(std::move(scheduler)), poller_(poller) {}

  void wake() override;

  // Polls the task once; the scheduler calls this for each task it pops.
  void run();

  // Destroys the coroutine without finishing it, at shutdown.
  virtual void shutdown() = 0;

 protected:
  // Keeps the output and wakes whoever waits to join.
  virtual void complete() = 0;

 private:
  std::shared_ptr<Schedule> scheduler_;
  Poller poller_;
  loom::atomic<bool> scheduled_{false};
  bool finished_ = false;  // only the runtime's thread reads or writes it
};

template <class T>
class Cell final : public TaskBase {
 public:
  Cell(std::shared_ptr<Schedule> scheduler, Task<T> future)
      : TaskBase(std::move(scheduler), Poller(future.handle())), future_(std::move(future)) {}

  bool is_complete() {
    std::lock_guard lock(mutex_);
    return complete_;
  }

  // The JoinHandle's poll: ready once the task is complete, else keep the
  // joiner's waker (unless it is the one we have already).
  bool poll_join(Context& cx) {
    std::lock_guard lock(mutex_);
    if (complete_) return true;
    if (!join_waker_.will_wake(cx.waker())) join_waker_ = cx.waker();
    return false;
  }

  T take_output() {
    std::lock_guard lock(mutex_);
    return output_.take();
  }

  void shutdown() override { future_ = Task<T>(); }

 private:
  void complete() override {
    //@ mutant executor complete_before_output: marks the task complete, then stores its output: a joiner that looks in between finds it finished with no output
    output_.store_from(future_);
    future_ = Task<T>();  // the finished coroutine's frame is not needed
    Waker joiner;
    {
      std::lock_guard lock(mutex_);
      complete_ = true;
      joiner = std::move(join_waker_);
    }
    //@ instead
    Waker joiner;
    {
      std::lock_guard lock(mutex_);
      complete_ = true;
      joiner = std::move(join_waker_);
    }
    output_.store_from(future_);
    future_ = Task<T>();
    //@ end
    joiner.wake();
  }

  Task<T> future_;
  loom::mutex mutex_;
  Output<T> output_;
  bool complete_ = false;
  Waker join_waker_;
};

}  // namespace rt::detail
