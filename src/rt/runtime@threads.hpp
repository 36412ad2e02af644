// Runtime: owns a scheduler, current-thread or multi-thread, and shuts it
// down when it goes. Mirrors tokio::runtime::Runtime.
//
//   rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
//   int answer = runtime.block_on(compute());   // drives compute() to the end
//
// Inside block_on and in every task, rt::spawn(task) starts a task on the
// same runtime; runtime.handle() reaches it from any other thread.
#pragma once

#include <concepts>
#include <memory>
#include <utility>

#include "rt/runtime/handle.hpp"
#include "rt/runtime/metrics.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/task.hpp"

namespace rt {

class Runtime {
 public:
  // A current-thread runtime, the only flavour of chapters 01 to 03.
  // (Tokio's Runtime::new() builds a multi-thread one: use rt::Builder.)
  Runtime();
  Runtime(Runtime&& other) noexcept = default;
  Runtime& operator=(Runtime&& other) noexcept;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  // Cancels every task, stops the workers, and waits for them.
  ~Runtime();

  template <class T>
  T block_on(Task<T> future) {
    return handle_.block_on(std::move(future));
  }

  template <class T>
  JoinHandle<T> spawn(Task<T> future) {
    return handle_.spawn(std::move(future));
  }
  template <std::invocable F>
  auto spawn(F f) {
    return handle_.spawn(std::move(f));
  }

  const Handle& handle() const { return handle_; }
  RuntimeMetrics metrics() const { return handle_.metrics(); }

 private:
  friend class Builder;
  explicit Runtime(std::shared_ptr<detail::SchedulerHandle> scheduler) : handle_(std::move(scheduler)) {}
  void shutdown();

  Handle handle_;  // empty once moved from
};

}  // namespace rt

#include "rt/runtime/builder.hpp"
