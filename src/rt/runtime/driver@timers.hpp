// Driver: what a runtime's idle thread parks in, so that it waits for I/O
// and for timers while it waits for work. Mirrors Tokio's
// runtime/driver.rs (the stack of drivers) and the TryLock around it in
// scheduler/multi_thread/park.rs.
//
// One per runtime, shared by its threads behind a try-lock: the first
// thread to park takes it and sleeps; the others sleep on their own
// condition variables (rt/scheduler/park.hpp). There is no thread of its
// own. The stack: the time driver on top (it sleeps no longer than the
// next timer, then fires what is due), the I/O driver below (epoll_wait,
// and the eventfd that unpark writes). With timers but no I/O, the I/O
// driver is there all the same, as the thing to sleep in; it accepts no
// socket.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "rt/io/driver.hpp"
#include "rt/loom.hpp"
#include "rt/time/driver.hpp"
//@ chapters capstone..

#include <mutex>

#include "rt/signal/driver.hpp"
//@ end

namespace rt::detail {

struct DriverConfig {
  bool enable_io = false;
  std::size_t max_io_events_per_tick = 1024;
  bool enable_time = false;
  bool start_paused = false;  // the clock starts paused (tests)
  bool pausable = false;      // a current-thread runtime: its clock may be paused
};

class Driver {
 public:
  explicit Driver(const DriverConfig& config);

  // The lock: one thread at a time parks in the driver or polls it.
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }  // acquire: see the last holder's turn
  void unlock() { locked_.store(false, std::memory_order_release); }              // release: publish this turn

  // The holder: sleeps until an event, a timer or an unpark, dispatching
  // events and firing timers.
  void park();
  // Any thread: dispatches what is ready now and fires what is due,
  // without sleeping, if the driver is free (a busy worker's maintenance).
  void poll();
  // Any thread: wakes the holder from park().
  void unpark() { io_->unpark(); }

  // The I/O driver for sockets: nullptr unless enable_io.
  IoDriver* io() const { return io_enabled_ ? io_.get() : nullptr; }
  const std::shared_ptr<IoDriver>& io_shared() const { return io_; }
  // The time driver: nullptr unless enable_time.
  const std::shared_ptr<TimeDriver>& time() const { return time_; }
  bool pausable() const { return pausable_; }
  void shutdown();

 private:
  loom::atomic<bool> locked_{false};
  bool io_enabled_;
  bool pausable_;
  std::shared_ptr<IoDriver> io_;      // shared with every registration, which may outlive the runtime
  std::shared_ptr<TimeDriver> time_;  // shared with every Sleep, likewise
//@ chapters capstone..

 public:
  // The signal driver, made by the first Signal (it registers two
  // descriptors, which a runtime that never listens does without).
  SignalDriver& signal();

 private:
  std::once_flag signal_made_;
  std::unique_ptr<SignalDriver> signal_;
//@ end
};

// The runtime's driver, or nullptr when the builder enabled none.
std::unique_ptr<Driver> make_driver(const DriverConfig& config);

// The driver of the runtime this thread runs in, for a new socket or a
// new timer. Throw, naming what to do, when there is no runtime or it has
// not enabled what is asked for.
const std::shared_ptr<IoDriver>& current_io_driver();
const std::shared_ptr<TimeDriver>& current_time_driver();

}  // namespace rt::detail
