//@ file threads..
// SchedulerHandle: the scheduler as everything outside it reaches it: its
// tasks (through their header), rt::Handle, rt::spawn and block_on. Mirrors
// Tokio's runtime/scheduler/mod.rs (enum Handle { CurrentThread,
// MultiThread }): one shared object per runtime, held by every task and
// every Handle, so it outlives the Runtime for as long as anyone can reach
// it. After shutdown it still answers, refusing new work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "rt/scheduler/owned_tasks.hpp"
#include "rt/task/header.hpp"
#include "rt/task/poll.hpp"
//@ chapters reactor..
#include "rt/runtime/driver.hpp"
//@ end
//@ chapters blocking..

#include <chrono>
#include <optional>
#include <stdexcept>

#include "rt/blocking/pool.hpp"
//@ end
//@ chapters capstone..
#include "rt/runtime/metrics/instruments.hpp"
//@ end

namespace rt::detail {

class SchedulerHandle : public Schedule {
 public:
  virtual ~SchedulerHandle() = default;

  // Schedule, for a task that completed: unlink it from the owned list.
  bool release(Header& task) override { return owned_.remove(task); }

  // spawn's untyped half: the typed half built the cell (with its three
  // references); this records it in the owned list and queues it, or,
  // once the runtime has shut down, cancels it before it ever runs.
  void bind_and_schedule(Header* task);

  // Drives `root` on the calling thread until it has finished.
  virtual void block_on(Poller& root) = 0;

  // Cancels every task, stops the workers, and refuses work from now on.
  // Called once, by the Runtime, from a thread that is not a worker.
  virtual void shutdown() = 0;
  bool is_shutdown() const { return owned_.is_closed(); }

  // What rt::RuntimeMetrics reports.
  virtual std::size_t num_workers() const = 0;
  virtual std::size_t global_queue_depth() const = 0;
  virtual std::uint64_t global_queue_lock_waits() const = 0;
  virtual std::size_t num_idle_workers() const { return 0; }
  virtual std::uint64_t worker_park_count(std::size_t) const { return 0; }
  virtual std::uint64_t worker_unpark_count(std::size_t) const { return 0; }

 protected:
  // Unlinks and cancels every task left; for shutdown.
  void cancel_all_tasks();

  OwnedTasks owned_;

 public:
//@ chapters local-queues..
  virtual std::size_t worker_local_queue_depth(std::size_t) const { return 0; }
  virtual std::uint64_t worker_local_schedule_count(std::size_t) const { return 0; }
  virtual std::uint64_t worker_overflow_count(std::size_t) const { return 0; }
  virtual std::uint64_t worker_poll_count(std::size_t) const { return 0; }
//@ end
//@ chapters stealing..
  virtual std::uint64_t worker_steal_count(std::size_t) const { return 0; }
  virtual std::uint64_t worker_steal_operations(std::size_t) const { return 0; }
  virtual std::size_t num_searching_workers() const { return 0; }
//@ end
//@ chapters reactor..

  // The runtime's driver, or nullptr when the builder enabled none.
  Driver* driver() const { return driver_.get(); }
  // After shutdown(): every socket's waits end with an error, and nothing
  // new can register.
  void shutdown_driver() {
    if (driver_) driver_->shutdown();
  }

 protected:
  std::unique_ptr<Driver> driver_;  // set by the scheduler's constructor

 public:
//@ end
//@ chapters blocking..

  // The blocking pool: spawn_blocking's jobs, and the multi-thread
  // runtime's worker loops. The builder sets its limits, before the
  // runtime starts.
  const std::shared_ptr<BlockingPool>& blocking_pool() const { return blocking_; }
  void set_blocking_pool(BlockingConfig config) { blocking_ = std::make_shared<BlockingPool>(std::move(config)); }
  // After shutdown() and shutdown_driver(): waits for the pool's threads,
  // for ever or at most `timeout`.
  void shutdown_blocking_pool(std::optional<std::chrono::nanoseconds> timeout) { blocking_->shutdown(timeout); }
  // The pool's threads that run blocking jobs, not worker loops.
  virtual std::size_t num_blocking_threads() const { return blocking_->num_threads(); }

  // block_in_place on a thread that drives this runtime (rt/blocking/
  // block_in_place.hpp): which worker's core the thread handed off, if it
  // had one. A current-thread runtime has nowhere to run its tasks
  // meanwhile: it refuses, with Tokio's message.
  virtual std::optional<std::size_t> enter_blocking_section() {
    throw std::logic_error("can call blocking only when running on the multi-threaded runtime");
  }
  // The blocking section ended: take that core back, if nobody took it.
  virtual void leave_blocking_section(std::size_t) {}

 protected:
  std::shared_ptr<BlockingPool> blocking_ = std::make_shared<BlockingPool>(BlockingConfig{});

 public:
//@ end
//@ chapters capstone..

  // What the runtime counts and records beyond the counters above
  // (rt/runtime/metrics/instruments.hpp). The builder sets it up, before
  // the runtime starts.
  Instruments& instruments() const { return *instruments_; }
  void set_instruments(InstrumentsConfig config, std::size_t workers) {
    instruments_ = std::make_unique<Instruments>(std::move(config), workers);
  }
  // Tasks spawned and not yet completed (Tokio's num_alive_tasks), and
  // every task spawned (spawned_tasks_count).
  std::size_t num_alive_tasks() const { return owned_.len(); }
  std::uint64_t spawned_tasks_count() const { return owned_.spawned(); }

 protected:
  std::unique_ptr<Instruments> instruments_ = std::make_unique<Instruments>(InstrumentsConfig{}, 1);

//@ end
};

}  // namespace rt::detail
