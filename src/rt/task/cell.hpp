//@ chapters -1
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
  TaskBase(std::shared_ptr<Schedule> scheduler, std::coroutine_handle<> root)
      : scheduler_(std::move(scheduler)), poller_(root) {}

  // ANCHOR: wake
  void wake() override {
    //@ exercise 1 waker
    // A task that is queued already will be polled; queueing it twice would
    // poll it twice for one wake-up. Exactly one racing waker sees false.
    if (scheduled_.exchange(true, std::memory_order_acq_rel)) return;
    scheduler_->schedule(shared_from_this());
    //@ starter
    // TODO: hand this task to its scheduler, to be polled again, unless it
    // is queued already (then do nothing: it will be polled anyway).
    // Hint: scheduled_.exchange(true) tells you whether it was queued, and
    // shared_from_this() is the reference the run queue keeps.
    throw Todo("01 waker (rt/task/cell.hpp)");
    //@ end
  }
  // ANCHOR_END: wake

  // ANCHOR: run
  // Polls the task once; the scheduler calls this for each task it pops.
  void run() {
    if (finished_) return;  // woken during its last poll, then it finished
    // Cleared before the poll, so that a wake during the poll queues it again.
    scheduled_.store(false, std::memory_order_release);
    Waker waker(shared_from_this());
    Context cx(waker);
    if (!poller_.poll(cx)) return;
    finished_ = true;
    complete();
    scheduler_->release(*this);
  }
  // ANCHOR_END: run

  // Destroys the coroutine without finishing it, at shutdown.
  virtual void shutdown() = 0;

 protected:
  // Keeps the output and wakes whoever waits to join.
  virtual void complete() = 0;

 private:
  std::shared_ptr<Schedule> scheduler_;
  Poller poller_;
  std::atomic<bool> scheduled_{false};
  bool finished_ = false;  // only the runtime's thread reads or writes it
};

template <class T>
class Cell final : public TaskBase {
 public:
  Cell(std::shared_ptr<Schedule> scheduler, Task<T> future)
      : TaskBase(std::move(scheduler), future.handle()), future_(std::move(future)) {}

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
    output_.store_from(future_);
    future_ = Task<T>();  // the finished coroutine's frame is not needed
    Waker joiner;
    {
      std::lock_guard lock(mutex_);
      complete_ = true;
      joiner = std::move(join_waker_);
    }
    joiner.wake();
  }

  Task<T> future_;
  std::mutex mutex_;
  Output<T> output_;
  bool complete_ = false;
  Waker join_waker_;
};

}  // namespace rt::detail
//@ else
// A spawned task: one allocation holding its header (state word, links,
// scheduler), its coroutine, its output and the join waker. Mirrors the
// Cell of Tokio's runtime/task/core.rs.
//
// The cell is built by spawn in the room in front of the coroutine frame
// (rt/task/frame_room.hpp), so the frame and the cell are one block. The
// block lives as long as the task has references (the owned-tasks list,
// a queued Notified, the JoinHandle, each waker); the coroutine frame in it
// is destroyed as soon as the task completes or is cancelled.
#pragma once

#include <memory>
#include <new>
#include <utility>

#include "rt/task/frame_room.hpp"
#include "rt/task/header.hpp"
#include "rt/task/output.hpp"
#include "rt/task/task.hpp"

namespace rt::detail {

// ANCHOR: cell
template <class T>
class Cell final : public Header {
 public:
  // spawn: builds the cell in the room in front of `future`'s frame. No
  // allocation: the room came with the frame.
  static Cell* create(std::shared_ptr<Schedule> scheduler, Task<T> future) {
    void* storage = FrameRoom<T>::claim_for_task(future.handle().address());
    return ::new (storage) Cell(std::move(scheduler), std::move(future));
  }

  // The JoinHandle's, once the task is complete.
  T take_output() { return output_.take(); }

 private:
  Cell(std::shared_ptr<Schedule> scheduler, Task<T> future)
      : Header(&kVTable, std::move(scheduler), future.handle()), future_(std::move(future)) {}

  static Cell* self(Header* task) { return static_cast<Cell*>(task); }

  static void store_output(Header* task) {
    Cell* cell = self(task);
    cell->output_.store_from(cell->future_);
    cell->future_ = Task<T>();  // destroys the finished frame; the block stays
  }
  static void cancel(Header* task) {
    Cell* cell = self(task);
    cell->future_ = Task<T>();  // runs the destructors of the suspended frame
    cell->output_.cancel();
  }
  static void drop_output(Header* task) {
    Cell* cell = self(task);
    std::destroy_at(&cell->output_);  // the value's destructor runs here, now
    std::construct_at(&cell->output_);
  }
  static void dealloc(Header* task) {
    Cell* cell = self(task);
    cell->~Cell();
    FrameRoom<T>::free_task(cell);  // the whole block: room and frame
  }

  static constexpr TaskVTable kVTable{&store_output, &cancel, &drop_output, &dealloc};

  Task<T> future_;   // empty once the coroutine is finished or cancelled
  Output<T> output_;
};
// ANCHOR_END: cell

}  // namespace rt::detail
//@ end
