//@ file timers..
// The runtime's clock, compiled once per runtime; see clock.hpp.
#include "rt/time/clock.hpp"

#include <stdexcept>

namespace rt::detail {

namespace {
time::Instant monotonic() { return time::Instant(time::Instant::Clock::now()); }
}  // namespace

Clock::Clock(bool start_paused) : ever_paused_(start_paused), base_(monotonic()) {
  if (!start_paused) unfrozen_ = base_;
}

time::Instant Clock::now() const {
  // acquire: see the base that pause() stored.
  if (!ever_paused_.load(std::memory_order_acquire)) return monotonic();
  std::lock_guard lock(mutex_);
  time::Instant now = base_;
  if (unfrozen_) now += monotonic() - *unfrozen_;
  return now;
}

void Clock::pause() {
  std::lock_guard lock(mutex_);
  if (!unfrozen_) throw std::logic_error("time is already frozen");
  base_ += monotonic() - *unfrozen_;
  unfrozen_.reset();
  ever_paused_.store(true, std::memory_order_release);
}

void Clock::resume() {
  std::lock_guard lock(mutex_);
  if (unfrozen_) throw std::logic_error("time is not frozen");
  unfrozen_ = monotonic();
}

bool Clock::is_paused() const {
  if (!ever_paused_.load(std::memory_order_acquire)) return false;
  std::lock_guard lock(mutex_);
  return !unfrozen_;
}

void Clock::advance(time::Duration duration) {
  std::lock_guard lock(mutex_);
  if (unfrozen_) throw std::logic_error("time is not frozen: call rt::time::pause() first");
  base_ += duration;
}

}  // namespace rt::detail
