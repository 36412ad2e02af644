// Runtime: the public face of the scheduler. Mirrors tokio::runtime::Runtime
// and tokio::spawn.
//
//   rt::Runtime runtime;
//   int answer = runtime.block_on(compute());   // drives compute() to the end
//
// Inside block_on, rt::spawn(task) starts a task on the same runtime.
#pragma once

#include <concepts>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "rt/scheduler/current_thread.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/poll.hpp"
#include "rt/task/task.hpp"

namespace rt {

class Runtime;

namespace detail {

// The runtime whose block_on is running on this thread, for rt::spawn.
inline thread_local Runtime* current_runtime = nullptr;

// Wraps a callable that returns a Task, so that the callable (a lambda and
// its captures) lives in the coroutine frame as long as the task does.
template <class F>
auto call(F f) -> decltype(f()) {
  co_return co_await f();
}

}  // namespace detail

class Runtime {
 public:
  Runtime() = default;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Drives `future` on this thread, with every spawned task, until it
  // finishes; returns its value or rethrows its exception.
  template <class T>
  T block_on(Task<T> future) {
    if (detail::current_runtime) {
      throw std::logic_error(
          "Cannot start a runtime from within a runtime. This happens because a function "
          "(like `block_on`) attempted to block the current thread while the thread is being "
          "used to drive asynchronous tasks.");
    }
    struct Enter {
      explicit Enter(Runtime* runtime) { detail::current_runtime = runtime; }
      ~Enter() { detail::current_runtime = nullptr; }
    } enter(this);
    detail::Poller root(future.handle());
    scheduler_.block_on(root);
    return future.take_result();
  }

  template <class T>
  JoinHandle<T> spawn(Task<T> future) {
    return scheduler_.spawn(std::move(future));
  }
  // spawn([captures]() -> Task<T> { ... }): the lambda is kept alive.
  template <std::invocable F>
  auto spawn(F f) {
    return spawn(detail::call(std::move(f)));
  }

 private:
  detail::CurrentThread scheduler_;
};

namespace detail {

inline Runtime& this_runtime() {
  if (!current_runtime) {
    throw std::logic_error(
        "there is no reactor running, must be called from the context of a runtime");
  }
  return *current_runtime;
}

}  // namespace detail

// Spawns onto the runtime this code runs on. Mirrors tokio::spawn.
template <class T>
JoinHandle<T> spawn(Task<T> future) {
  return detail::this_runtime().spawn(std::move(future));
}
template <std::invocable F>
auto spawn(F f) {
  return detail::this_runtime().spawn(std::move(f));
}

}  // namespace rt
