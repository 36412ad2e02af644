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
#include "rt/task/harness.hpp"
#include "rt/task/header.hpp"
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
    RunQueue queue;  // closed at shutdown: later wakes are dropped
    Parker parker;
    OwnedTasks owned;

    void schedule(Header* task) override;
    bool release(Header& task) override { return owned.remove(task); }
  };

  std::shared_ptr<Shared> shared_;
};

//@ listing spawn
template <class T>
JoinHandle<T> CurrentThread::spawn(Task<T> future) {
  // No allocation here: the cell goes in the room in front of the frame.
  // It starts with three references (INITIAL_STATE): the owned list's,
  // the Notified's and the JoinHandle's.
  Cell<T>* cell = Cell<T>::create(shared_, std::move(future));
  if (!shared_->owned.bind(cell)) {
    // The runtime has shut down: the task is cancelled before it ever
    // runs, and its JoinHandle says so (as in Tokio).
    detail::shutdown(cell);      // takes the owned list's reference
    drop_reference(cell);        // and the Notified's, never queued
    return JoinHandle<T>(cell);  // keeps the JoinHandle's
  }
  shared_->schedule(cell);  // a new task is queued exactly as a woken one is
  return JoinHandle<T>(cell);
}
//@ listing-end spawn

}  // namespace rt::detail
