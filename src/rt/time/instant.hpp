//@ file timers..
// Instant: a moment on the runtime's clock. Mirrors tokio::time::Instant.
//
// Outside a runtime, and in a runtime whose clock is not paused, it is the
// monotonic clock (std::chrono::steady_clock). In a runtime whose clock a
// test paused (rt::time::pause, Builder::start_paused), it is that clock:
// it stands still until the test advances it.
#pragma once

#include <chrono>
#include <compare>

namespace rt::time {

using Duration = std::chrono::nanoseconds;

class Instant {
 public:
  using Clock = std::chrono::steady_clock;

  Instant() = default;
  explicit Instant(Clock::time_point point) : point_(point) {}

  // Now, on the current runtime's clock.
  static Instant now();

  Clock::time_point time_point() const { return point_; }

  friend Instant operator+(Instant a, Duration d) { return Instant(a.point_ + d); }
  friend Instant operator-(Instant a, Duration d) { return Instant(a.point_ - d); }
  friend Duration operator-(Instant a, Instant b) { return a.point_ - b.point_; }
  Instant& operator+=(Duration d) {
    point_ += d;
    return *this;
  }
  friend auto operator<=>(const Instant&, const Instant&) = default;

  // How long since `earlier`; zero if `earlier` is later.
  Duration saturating_duration_since(Instant earlier) const {
    return point_ > earlier.point_ ? point_ - earlier.point_ : Duration::zero();
  }

 private:
  Clock::time_point point_{};
};

}  // namespace rt::time
