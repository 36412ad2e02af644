// Parker: lets a runtime's thread sleep until there is work, inside the
// runtime's driver when it is free, so that the sleep also waits for I/O.
// Mirrors Tokio's scheduler/multi_thread/park.rs (Parker, Unparker).
//
// One atomic state says where the thread sleeps, so that unpark knows how
// to wake it:
//
//   empty            awake, no notification pending
//   parked_condvar   asleep on the condition variable: notify it
//   parked_driver    asleep in the driver (epoll_wait): write its eventfd
//   notified         an unpark came: the next park returns at once
//
// unpark swaps in `notified` and wakes the thread the way the old state
// says; park consumes `notified`. As with chapter 01's token, an unpark
// that comes before the park is never lost.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "rt/loom.hpp"
#include "rt/runtime/driver.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class Parker;
// A test hook: called by a thread that took the driver, just before it
// records that it sleeps there; lets a test unpark at exactly that moment.
inline loom::atomic<void (*)(Parker&)> before_park_driver{nullptr};

class Parker {
 public:
  enum State : int { empty = 0, parked_condvar = 1, parked_driver = 2, notified = 3 };

  // `driver`: the runtime's driver, to sleep in when it is free; nullptr
  // (no I/O enabled, or a thread that must not drive): never.
  explicit Parker(Driver* driver = nullptr) : driver_(driver) {}
  // Set once, before any thread can park or unpark it.
  void set_driver(Driver* driver) { driver_ = driver; }

  void park();
  void unpark();

 private:
  void park_driver();
  void park_condvar();

  Driver* driver_;
  loom::atomic<int> state_{empty};
  loom::mutex mutex_;
  loom::condition_variable condvar_;
};

}  // namespace rt::detail
