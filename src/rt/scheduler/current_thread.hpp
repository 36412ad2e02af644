// CurrentThread: a scheduler that runs every task on the thread that called
// block_on. Mirrors Tokio's current-thread scheduler
// (runtime/scheduler/current_thread/mod.rs), without its drivers.
#pragma once

#include <memory>
#include <stdexcept>
#include <utility>

#include "rt/scheduler/owned_tasks.hpp"
#include "rt/scheduler/park.hpp"
#include "rt/scheduler/run_queue.hpp"
#include "rt/task/cell.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class CurrentThread {
 public:
  CurrentThread();
  ~CurrentThread();
  CurrentThread(const CurrentThread&) = delete;
  CurrentThread& operator=(const CurrentThread&) = delete;

  template <class T>
  JoinHandle<T> spawn(Task<T> future);

  // Runs the scheduler on this thread until `root` has finished.
  void block_on(Poller& root);

  // Destroys every unfinished task; later wake-ups do nothing.
  void shutdown();

 private:
  // What tasks and wakers reach, possibly from other threads, and possibly
  // after the runtime is gone: so it is shared, not owned by the runtime.
  struct Shared final : Schedule {
    RunQueue<TaskRef> queue;  // closed at shutdown: later wakes are dropped
    Parker parker;
    OwnedTasks<TaskBase> owned;

    void schedule(TaskRef task) override;
    void release(TaskBase& task) override {
      //@ mutant executor release_keeps_task: never forgets a finished task: the runtime keeps it, and its output, until it shuts down
      owned.remove(task);
      //@ instead
      (void)task;
      //@ end
    }
  };

  std::shared_ptr<Shared> shared_;
};

//@ listing spawn
template <class T>
JoinHandle<T> CurrentThread::spawn(Task<T> future) {
  //@ exercise executor spawn
  auto cell = std::make_shared<Cell<T>>(shared_, std::move(future));
  if (!shared_->owned.bind(cell)) throw std::runtime_error("spawn on a runtime that has shut down");
  cell->wake();  // a new task is ready to run: queue it like a woken one
  return JoinHandle<T>(std::move(cell));
  //@ starter
  // TODO: make a Cell<T> for `future` (std::make_shared, with shared_ as its
  // scheduler), record it in shared_->owned, queue it, and return a
  // JoinHandle<T> that shares it.
  // Hint: a new task is queued exactly as a woken one is.
  (void)future;
  throw Todo("@NN@ spawn (@FILE@)");
  //@ end
}
//@ listing-end spawn

}  // namespace rt::detail
