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
