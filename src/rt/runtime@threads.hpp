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
//@ chapters blocking..

#include <chrono>
#include <optional>
//@ end

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
//@ chapters ..timers

 private:
  void shutdown();
//@ else

  template <std::invocable F>
  auto spawn_blocking(F f) {
    return handle_.spawn_blocking(std::move(f));
  }

  // The destructor also waits for the blocking pool's threads. This shuts
  // down as it does, but waits at most `timeout` for them: those still
  // running a job are left to finish it on their own. The Runtime is
  // empty afterwards.
  void shutdown_timeout(std::chrono::nanoseconds timeout) { shutdown(timeout); }
  // The same without waiting for the blocking pool at all.
  void shutdown_background() { shutdown(std::chrono::nanoseconds::zero()); }

 private:
  // Waits for the blocking pool for ever, or at most `timeout`.
  void shutdown(std::optional<std::chrono::nanoseconds> timeout = std::nullopt);
//@ end

 private:
  friend class Builder;
  explicit Runtime(std::shared_ptr<detail::SchedulerHandle> scheduler) : handle_(std::move(scheduler)) {}

  Handle handle_;  // empty once moved from
};

}  // namespace rt

#include "rt/runtime/builder.hpp"

// The runtime has both flavours, current-thread and multi-thread: the tests
// of every chapter run on each (tests/support/flavours.hpp), which
// rt::Builder chooses from.
#define RT_HAS_MULTI_THREAD 1
