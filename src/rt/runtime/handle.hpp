//@ file threads..
// rt::Handle: a runtime's shared scheduler handle, to spawn onto it or
// block on it from any thread, even after the Runtime object has moved.
// Mirrors tokio::runtime::Handle.
//
//   rt::Handle handle = runtime.handle();
//   std::thread([handle] { handle.spawn(work()); }).join();
//
// Once the runtime has shut down, a task spawned through a handle is
// cancelled before it runs (its JoinHandle says so), and block_on throws.
#pragma once

#include <concepts>
#include <memory>
#include <stdexcept>
#include <utility>

//@ chapters blocking..
#include "rt/blocking/spawn_blocking.hpp"
//@ end
#include "rt/runtime/context.hpp"
#include "rt/runtime/metrics.hpp"
#include "rt/scheduler/handle.hpp"
#include "rt/task/cell.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"

namespace rt {

namespace detail {

// Wraps a callable that returns a Task, so that the callable (a lambda and
// its captures) lives in the coroutine frame as long as the task does.
template <class F>
auto call(F f) -> decltype(f()) {
  co_return co_await f();
}

//@ listing spawn_on
// spawn's typed half: build the task's cell in the room in front of its
// frame (no allocation); the untyped half, on the scheduler handle, binds
// it to the runtime and queues it.
template <class T>
JoinHandle<T> spawn_on(const std::shared_ptr<SchedulerHandle>& scheduler, Task<T> future) {
  Cell<T>* cell = Cell<T>::create(scheduler, std::move(future));
  scheduler->bind_and_schedule(cell);
  return JoinHandle<T>(cell);
}
//@ listing-end spawn_on

}  // namespace detail

class Handle {
 public:
  explicit Handle(std::shared_ptr<detail::SchedulerHandle> scheduler) : scheduler_(std::move(scheduler)) {}

  // The handle of the runtime this code runs on (inside block_on, or in a
  // task); throws when there is none.
  static Handle current() { return Handle(detail::current_handle()); }

  template <class T>
  JoinHandle<T> spawn(Task<T> future) const {
    return detail::spawn_on(scheduler_, std::move(future));
  }
  // spawn([captures]() -> Task<T> { ... }): the lambda is kept alive.
  template <std::invocable F>
  auto spawn(F f) const {
    return spawn(detail::call(std::move(f)));
  }

  // Drives `future` on this thread until it finishes; returns its value or
  // rethrows its exception. Spawned tasks run on the runtime's workers
  // (multi-thread) or inside block_on (current-thread).
  template <class T>
  T block_on(Task<T> future) const {
    detail::EnterRuntimeGuard entered;  // throws if this thread drives a runtime already
    if (scheduler_->is_shutdown()) {
      throw std::runtime_error("the runtime of this handle has shut down: it can run nothing more");
    }
    detail::SetCurrentGuard current(scheduler_);
    detail::Poller root(future.handle());
    scheduler_->block_on(root);
    return future.take_result();
  }

//@ chapters blocking..
  // Runs `f` on this runtime's blocking pool (rt/blocking/spawn_blocking.hpp).
  template <std::invocable F>
  auto spawn_blocking(F f) const {
    return detail::spawn_blocking_on(scheduler_, std::move(f));
  }

//@ end
  RuntimeMetrics metrics() const { return RuntimeMetrics(scheduler_); }

 private:
  friend class Runtime;
  std::shared_ptr<detail::SchedulerHandle> scheduler_;
};

// Spawns onto the runtime this code runs on. Mirrors tokio::spawn.
template <class T>
JoinHandle<T> spawn(Task<T> future) {
  return detail::spawn_on(detail::current_handle(), std::move(future));
}
template <std::invocable F>
auto spawn(F f) {
  return spawn(detail::call(std::move(f)));
}

}  // namespace rt
