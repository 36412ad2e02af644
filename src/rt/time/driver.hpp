//@ file timers..
// TimeDriver: the runtime's timers: one wheel behind one mutex, and the
// park that sleeps no longer than the next timer. Mirrors Tokio's
// runtime/time/mod.rs (Driver, park_internal, process_at_time).
//
// It sits on top of the I/O driver: to park, it reads the wheel's next
// deadline, parks the I/O driver with that timeout (epoll_wait's), then
// fires what is due. A timer registered earlier than the deadline the
// driver sleeps towards wakes it (its eventfd), so that it sleeps less.
// Wakers are called with the lock released, 32 at a time: a woken task
// may run at once on another thread and touch its timer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "rt/io/driver.hpp"
#include "rt/loom.hpp"
#include "rt/time/clock.hpp"
#include "rt/time/entry.hpp"
#include "rt/time/wheel.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Called, when set, right before the driver sleeps in epoll_wait, with the
// timeout it computed (-1: none): lets a test act once the driver sleeps.
inline loom::atomic<void (*)(int)> before_time_driver_parks{nullptr};

class TimeDriver {
 public:
  TimeDriver(std::shared_ptr<IoDriver> io, bool start_paused);

  Clock& clock() { return clock_; }
  // The tick of an instant: rounded up for a deadline (a timer never fires
  // early), down for now.
  std::uint64_t deadline_to_tick(time::Instant deadline) const;
  std::uint64_t now_tick() const;
  time::Instant tick_to_instant(std::uint64_t tick) const;

  // Any thread, for a Sleep's poll: registers `entry` (deadline set) and
  // stores the waker; true if it is due already (then it is not
  // registered). Wakes the driver if it sleeps towards a later deadline.
  bool register_entry(TimerEntry& entry, const Waker& waker);
  // Any thread: the entry fired already? If not, store a new waker.
  bool poll_entry(TimerEntry& entry, const Waker& waker);
  // Any thread: takes `entry` out of the wheel (a Sleep destroyed).
  void deregister_entry(TimerEntry& entry);
  // Any thread: moves a registered `entry` to a new deadline, keeping its
  // waker (which is woken at once if the new deadline is due).
  void reset_entry(TimerEntry& entry, std::uint64_t deadline);
  // Any thread: whether `entry` fired.
  bool has_fired(const TimerEntry& entry);

  // The driver's holder: sleeps until the next timer, an I/O event or an
  // unpark (timeout_ms -1), or polls (0); then fires what is due.
  void park(int timeout_ms);
  // Fires every timer due at `now` (ticks); for park and advance.
  void process_at(std::uint64_t now);
  // At shutdown: every timer fires, so that no task waits forever.
  void shutdown();
  bool is_shutdown() const { return shutdown_.load(std::memory_order_acquire); }

  // Metrics: timers registered so far, and timers in the wheel now.
  std::uint64_t registrations() const { return registrations_.load(std::memory_order_relaxed); }
  std::size_t num_timers();

 private:
  // The timeout for parking: the caller's, or less if a timer is due sooner.
  int park_timeout(int timeout_ms);

  std::shared_ptr<IoDriver> io_;
  Clock clock_;
  time::Instant start_;  // tick 0
  loom::mutex mutex_;
  Wheel wheel_;
  std::size_t num_timers_ = 0;  // entries in the wheel
  // The tick the parked driver sleeps towards (never: UINT64_MAX); a
  // registration before it wakes the driver.
  loom::atomic<std::uint64_t> next_wake_{UINT64_MAX};
  loom::atomic<bool> shutdown_{false};
  loom::atomic<std::uint64_t> registrations_{0};
};

}  // namespace rt::detail
