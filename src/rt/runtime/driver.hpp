//@ file reactor
// Driver: what a runtime's idle thread parks in, so that it waits for I/O
// while it waits for work. Mirrors Tokio's runtime/driver.rs (the stack of
// drivers) and the TryLock around it in scheduler/multi_thread/park.rs.
//
// One per runtime, shared by its threads behind a try-lock: the first
// thread to park takes it and sleeps in epoll_wait; the others sleep on
// their own condition variables (rt/scheduler/park.hpp). There is no
// thread of its own. Chapter 10 adds the time driver on top of this one.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "rt/io/driver.hpp"
#include "rt/loom.hpp"

namespace rt::detail {

struct DriverConfig {
  bool enable_io = false;
  std::size_t max_io_events_per_tick = 1024;
};

class Driver {
 public:
  explicit Driver(const DriverConfig& config);

  // The lock: one thread at a time parks in the driver or polls it.
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }  // acquire: see the last holder's turn
  void unlock() { locked_.store(false, std::memory_order_release); }              // release: publish this turn

  // The holder: sleeps until an event or an unpark, dispatching events.
  void park() { io_->turn(-1); }
  // Any thread: dispatches what is ready now, without sleeping, if the
  // driver is free (a busy worker's maintenance).
  void poll();
  // Any thread: wakes the holder from park().
  void unpark() { io_->unpark(); }

  const std::shared_ptr<IoDriver>& io() const { return io_; }
  void shutdown() { io_->shutdown(); }

 private:
  loom::atomic<bool> locked_{false};
  std::shared_ptr<IoDriver> io_;  // shared with every registration, which may outlive the runtime
};

// The runtime's driver, or nullptr when the builder enabled none.
std::unique_ptr<Driver> make_driver(const DriverConfig& config);

// The driver of the runtime this thread runs in, for a new socket. Throws,
// naming what to do, when there is no runtime or it has no I/O enabled.
const std::shared_ptr<IoDriver>& current_io_driver();

}  // namespace rt::detail
