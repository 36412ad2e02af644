//@ file timers..
// Clock: a runtime's source of time, which a test can pause and advance.
// Mirrors Tokio's time/clock.rs (the test-util clock).
//
// Unpaused, it reads the monotonic clock. Paused, it stands still at the
// moment it was paused, plus whatever advance() added: timer tests then
// run hours of timer time in milliseconds, and always the same way.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "rt/loom.hpp"
#include "rt/time/instant.hpp"

namespace rt::detail {

class Clock {
 public:
  explicit Clock(bool start_paused);

  time::Instant now() const;
  void pause();
  void resume();
  bool is_paused() const;
  // Moves a paused clock forward by `duration`.
  void advance(time::Duration duration);

 private:
  loom::atomic<bool> ever_paused_;  // false: now() is the monotonic clock, with no lock
  mutable loom::mutex mutex_;
  time::Instant base_;                       // the time when paused, plus advances
  std::optional<time::Instant> unfrozen_;    // running since then (not paused)
};

}  // namespace rt::detail
