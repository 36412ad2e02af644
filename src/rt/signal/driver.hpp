//@ file capstone..
// SignalDriver: a runtime's ear for the process's signals. Mirrors
// tokio/src/runtime/signal/mod.rs, the signal driver that sits on the I/O
// driver.
//
// Made when the runtime's first Signal is (rt::signal::signal), it
// registers the registry's two descriptors with the runtime's I/O driver,
// so that whichever thread turns the driver hears of a delivery. It needs
// no task and no thread: the waker it leaves on the descriptors is its
// own, and waking it, which the driver's dispatch does, runs
// SignalRegistry::process() and leaves the waker again.
#pragma once

#include <memory>

#include "rt/io/driver.hpp"
#include "rt/io/scheduled_io.hpp"

namespace rt::detail {

class SignalDriver {
 public:
  explicit SignalDriver(std::shared_ptr<IoDriver> io);
  ~SignalDriver();
  SignalDriver(const SignalDriver&) = delete;
  SignalDriver& operator=(const SignalDriver&) = delete;

 private:
  struct Source {
    int fd = -1;  // our own dup of the registry's descriptor
    std::shared_ptr<ScheduledIo> io;
  };

  // The waker's wake: what was delivered is processed, the waker left again.
  void on_ready();
  // Leaves this driver's waker on both descriptors; true if one is ready
  // already (then nothing was left on it).
  bool arm();

  static RawWaker clone(const void* data);
  static void wake(const void* data);
  static void drop(const void*) {}
  static const RawWakerVTable vtable;

  std::shared_ptr<IoDriver> io_;
  Source signals_;
  Source wake_;
};

// The current runtime's signal driver, made on first use. Throws, naming
// what to do, without a runtime or without I/O enabled.
SignalDriver& current_signal_driver();

}  // namespace rt::detail
