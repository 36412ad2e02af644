//@ file timers..
// Interval: ticks at a fixed period. Mirrors tokio::time::Interval
// (time/interval.rs).
//
//   rt::time::Interval every = rt::time::interval(std::chrono::milliseconds(100));
//   for (;;) {
//     co_await every.tick();   // the first tick completes at once
//     ...
//   }
//
// A task that falls behind (a tick more than 5 ms late) has missed ticks;
// what the next deadline is then, is the MissedTickBehavior: burst (the
// missed ticks come at once, to catch up: the default), delay (start
// again from now), skip (the next multiple of the period from the start).
#pragma once

#include "rt/task/poll.hpp"
#include "rt/time/instant.hpp"
#include "rt/time/sleep.hpp"

namespace rt::time {

enum class MissedTickBehavior { burst, delay, skip };

class Interval {
 public:
  Interval(Instant start, Duration period);
  Interval(const Interval&) = delete;
  Interval& operator=(const Interval&) = delete;

  // `co_await tick()`: the deadline of the tick that completed.
  class Tick : public Leaf<Tick> {
   public:
    explicit Tick(Interval& interval) : interval_(interval) {}
    bool poll(Context& cx) override;
    bool cooperative() const override { return true; }
    Instant await_resume() const { return instant_; }

   private:
    Interval& interval_;
    Instant instant_;
  };
  Tick tick() { return Tick(*this); }

  void set_missed_tick_behavior(MissedTickBehavior behavior) { behavior_ = behavior; }
  MissedTickBehavior missed_tick_behavior() const { return behavior_; }
  Duration period() const { return period_; }
  // Starts over: the next tick is one period from now.
  void reset();

 private:
  friend class Tick;
  // The deadline after `timeout` (the tick just completed), at `now`.
  Instant next_timeout(Instant timeout, Instant now) const;

  Sleep delay_;
  Duration period_;
  MissedTickBehavior behavior_ = MissedTickBehavior::burst;
};

// Ticks at once, then every `period`.
inline Interval interval(Duration period) { return Interval(Instant::now(), period); }
// Ticks at `start`, then every `period`.
inline Interval interval_at(Instant start, Duration period) { return Interval(start, period); }

}  // namespace rt::time
