//@ file timers..
// Interval's ticks, compiled once per runtime; see interval.hpp.
#include "rt/time/interval.hpp"

#include <chrono>
#include <stdexcept>

namespace rt::time {

Interval::Interval(Instant start, Duration period) : delay_(start), period_(period) {
  if (period <= Duration::zero()) throw std::invalid_argument("interval: the period must be more than zero");
}

bool Interval::Tick::poll(Context& cx) {
  if (!interval_.delay_.poll(cx)) return false;
  Instant timeout = interval_.delay_.deadline();
  Instant now = Instant::now();
  instant_ = timeout;
  interval_.delay_.reset(interval_.next_timeout(timeout, now));
  return true;
}

//@ listing next_timeout
Instant Interval::next_timeout(Instant timeout, Instant now) const {
  // Less than 5 ms late is on time (Tokio's threshold): the next tick is
  // a period after this one.
  if (now.saturating_duration_since(timeout) <= std::chrono::milliseconds(5)) return timeout + period_;
  switch (behavior_) {
    case MissedTickBehavior::burst:
      return timeout + period_;  // the missed ones come one after another
    case MissedTickBehavior::delay:
      return now + period_;      // a period from now, the schedule shifted
    case MissedTickBehavior::skip:
      // The next tick on the original schedule after now.
      return now + period_ - Duration((now - timeout).count() % period_.count());
  }
  return timeout + period_;
}
//@ listing-end next_timeout

void Interval::reset() { delay_.reset(Instant::now() + period_); }

}  // namespace rt::time
