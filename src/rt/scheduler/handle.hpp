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

//@ chapters reactor..
#include "rt/runtime/driver.hpp"
//@ end
#include "rt/scheduler/owned_tasks.hpp"
#include "rt/task/header.hpp"
#include "rt/task/poll.hpp"

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
//@ end

 protected:
  // Unlinks and cancels every task left; for shutdown.
  void cancel_all_tasks();

  OwnedTasks owned_;
//@ chapters reactor..
  std::unique_ptr<Driver> driver_;  // set by the scheduler's constructor
//@ end
};

}  // namespace rt::detail
