// Runtime: owns a scheduler, current-thread or multi-thread, and shuts it
// down when it goes. Mirrors tokio::runtime::Runtime.
//
//   rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
//   int answer = runtime.block_on(compute());   // drives compute() to the end
//
// Inside block_on and in every task, rt::spawn(task) starts a task on the
// same runtime; runtime.handle() reaches it from any other thread.
#pragma once

//@ chapters blocking..
#include <chrono>
//@ end
#include <concepts>
#include <memory>
//@ chapters blocking..
#include <optional>
//@ end
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
//@ chapters ..timers
  // Cancels every task, stops the workers, and waits for them.
//@ else
  // Cancels every task, stops the workers, and waits for them and for the
  // blocking pool's threads.
//@ end
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

//@ chapters blocking..
  template <std::invocable F>
  auto spawn_blocking(F f) {
    return handle_.spawn_blocking(std::move(f));
  }

  // Shuts down as the destructor does, but waits at most `timeout` for
  // the blocking pool's threads: those still running a job are left to
  // finish it on their own. The Runtime is empty afterwards.
  void shutdown_timeout(std::chrono::nanoseconds timeout) { shutdown(timeout); }
  // The same without waiting for the blocking pool at all.
  void shutdown_background() { shutdown(std::chrono::nanoseconds::zero()); }

//@ end
  const Handle& handle() const { return handle_; }
  RuntimeMetrics metrics() const { return handle_.metrics(); }

 private:
  friend class Builder;
  explicit Runtime(std::shared_ptr<detail::SchedulerHandle> scheduler) : handle_(std::move(scheduler)) {}
//@ chapters ..timers
  void shutdown();
//@ else
  // Waits for the blocking pool for ever, or at most `timeout`.
  void shutdown(std::optional<std::chrono::nanoseconds> timeout = std::nullopt);
//@ end

  Handle handle_;  // empty once moved from
};

}  // namespace rt

#include "rt/runtime/builder.hpp"
