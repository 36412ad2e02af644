// Chapter 10: Interval on a paused clock, where every tick's instant is
// exact: the first tick at once, then one a period; and a task that falls
// behind (busy for 35 ms of a 10 ms interval: it misses the ticks at 10,
// 20 and 30 ms) gets what its MissedTickBehavior says: burst (the missed
// ticks at once), delay (a period after the late tick) or skip (the next
// tick on the original schedule).
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "timers.hpp"

using namespace std::chrono_literals;
using ch10::us;
using rt::time::Instant;
using rt::time::MissedTickBehavior;

namespace {

// (the tick's instant, the clock when the tick completed), in microseconds
// since the start.
using Ticks = std::vector<std::pair<std::int64_t, std::int64_t>>;

// A 10 ms interval with `behavior`: its first tick, then 35 ms of clock
// time without a tick, then four more ticks.
Ticks late_ticks(MissedTickBehavior behavior) {
  rt::Runtime runtime = ch10::paused();
  return runtime.block_on([behavior]() -> rt::Task<Ticks> {
    Instant start = Instant::now();
    rt::time::Interval interval = rt::time::interval(10ms);
    interval.set_missed_tick_behavior(behavior);
    Ticks ticks;
    Instant tick = co_await interval.tick();
    ticks.emplace_back(us(tick - start), us(Instant::now() - start));
    co_await rt::time::advance(35ms);  // busy
    for (int i = 0; i < 4; ++i) {
      tick = co_await interval.tick();
      ticks.emplace_back(us(tick - start), us(Instant::now() - start));
    }
    co_return ticks;
  }());
}

rt::Task<> interval_of_no_period() {
  rt::time::Interval never = rt::time::interval(0ms);
  (void)never;
  co_return;
}

}  // namespace

TEST_CASE("an interval ticks at once and then every period" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  auto [every, at] = runtime.block_on([]() -> rt::Task<std::pair<Ticks, Ticks>> {
    Instant start = Instant::now();
    std::pair<Ticks, Ticks> ticks;
    {
      rt::time::Interval interval = rt::time::interval(10ms);
      for (int i = 0; i < 4; ++i) {
        Instant tick = co_await interval.tick();
        ticks.first.emplace_back(us(tick - start), us(Instant::now() - start));
      }
    }
    start = Instant::now();
    rt::time::Interval interval = rt::time::interval_at(start + 5ms, 10ms);
    for (int i = 0; i < 3; ++i) {
      Instant tick = co_await interval.tick();
      ticks.second.emplace_back(us(tick - start), us(Instant::now() - start));
    }
    co_return ticks;
  }());
  CHECK(every == Ticks{{0, 0}, {10'000, 10'000}, {20'000, 20'000}, {30'000, 30'000}});
  CHECK(at == Ticks{{5'000, 5'000}, {15'000, 15'000}, {25'000, 25'000}});
  CHECK_THROWS_AS(runtime.block_on(interval_of_no_period()), std::invalid_argument);
}

TEST_CASE("a burst interval catches up on the missed ticks at once" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  CHECK(runtime.block_on([]() -> rt::Task<bool> {
    co_return rt::time::interval(10ms).missed_tick_behavior() == MissedTickBehavior::burst;  // the default
  }()));
  CHECK(late_ticks(MissedTickBehavior::burst) ==
        Ticks{{0, 0}, {10'000, 35'000}, {20'000, 35'000}, {30'000, 35'000}, {40'000, 40'000}});
}

TEST_CASE("a delay interval ticks again a period after a late tick" * POINTS(1)) {
  CHECK(late_ticks(MissedTickBehavior::delay) ==
        Ticks{{0, 0}, {10'000, 35'000}, {45'000, 45'000}, {55'000, 55'000}, {65'000, 65'000}});
}

TEST_CASE("a skip interval skips to the next tick on its schedule" * POINTS(1)) {
  CHECK(late_ticks(MissedTickBehavior::skip) ==
        Ticks{{0, 0}, {10'000, 35'000}, {40'000, 40'000}, {50'000, 50'000}, {60'000, 60'000}});
}

TEST_CASE("interval reset starts the ticks over a period from now" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  Ticks ticks = runtime.block_on([]() -> rt::Task<Ticks> {
    Instant start = Instant::now();
    rt::time::Interval interval = rt::time::interval(10ms);
    Ticks ticks;
    Instant tick = co_await interval.tick();
    ticks.emplace_back(us(tick - start), us(Instant::now() - start));
    co_await rt::time::advance(3ms);
    interval.reset();
    for (int i = 0; i < 2; ++i) {
      tick = co_await interval.tick();
      ticks.emplace_back(us(tick - start), us(Instant::now() - start));
    }
    co_return ticks;
  }());
  CHECK(ticks == Ticks{{0, 0}, {13'000, 13'000}, {23'000, 23'000}});
}
