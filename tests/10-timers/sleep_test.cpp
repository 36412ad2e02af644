// Chapter 10: sleeping on the timer wheel, awaited by tasks. On a paused
// clock (exact: the clock stands still while tasks run, and jumps to the
// next timer when there is nothing else to do) and on the real one (where
// a sleep may only be checked to end at or after its deadline), on both
// flavours; and what a sleep needs: a runtime with enable_time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "timers.hpp"

using namespace std::chrono_literals;
using ch10::us;
using rt::time::Duration;
using rt::time::Instant;

namespace {

using Times = std::vector<std::int64_t>;  // microseconds of clock time

// Sleeps `duration`, then records the clock (since `start`) under `label`.
rt::Task<> sleep_then_record(Duration duration, Instant start, int label,
                             std::vector<std::pair<int, std::int64_t>>& woke) {
  co_await rt::time::sleep(duration);
  woke.emplace_back(label, us(Instant::now() - start));
}

}  // namespace

TEST_CASE("a sleep on a paused clock ends exactly at its deadline" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  Times ends = runtime.block_on([]() -> rt::Task<Times> {
    Instant start = Instant::now();
    Times ends;
    co_await rt::time::sleep(3600s);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep(64ms);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep_until(start + 7200s);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep(0ns);               // due now: ready at once
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep_until(start + 1s);  // past: ready at once
    ends.push_back(us(Instant::now() - start));
    co_return ends;
  }());
  CHECK(ends == Times{3'600'000'000, 3'600'064'000, 7'200'000'000, 7'200'000'000, 7'200'000'000});
}

TEST_CASE("a sub-millisecond sleep on a paused clock never ends in under 1 ms of clock time" * POINTS(1)) {
  // The wheel counts whole milliseconds: a deadline is rounded up to the
  // next one, never down, or a timer would fire before its deadline.
  rt::Runtime runtime = ch10::paused();
  Times ends = runtime.block_on([]() -> rt::Task<Times> {
    Instant start = Instant::now();
    Times ends;
    co_await rt::time::sleep(1ns);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep(999us);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep(1ms);
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep(1001us);  // 1 ms and a bit: 2 ms
    ends.push_back(us(Instant::now() - start));
    co_await rt::time::sleep_until(start + 5500us);
    ends.push_back(us(Instant::now() - start));
    co_return ends;
  }());
  CHECK(ends == Times{1'000, 2'000, 3'000, 5'000, 6'000});
}

TEST_CASE("a paused runtime with nothing else to do jumps to its next timer" * POINTS(1)) {
  // Hours and days of timer time, run at once: the clock moves straight
  // to each next timer (a real sleep would outlast the test's time limit).
  rt::Runtime runtime = ch10::paused();
  std::vector<std::pair<int, std::int64_t>> woke;  // (label, microseconds)
  runtime.block_on([&]() -> rt::Task<> {
    Instant start = Instant::now();
    std::vector<rt::JoinHandle<void>> sleepers;
    sleepers.push_back(rt::spawn(sleep_then_record(3h, start, 3, woke)));
    sleepers.push_back(rt::spawn(sleep_then_record(30 * 24h, start, 720, woke)));  // in the top level
    sleepers.push_back(rt::spawn(sleep_then_record(1h, start, 1, woke)));
    sleepers.push_back(rt::spawn(sleep_then_record(2h, start, 2, woke)));
    for (auto& sleeper : sleepers) co_await sleeper;
  }());
  constexpr std::int64_t hour = 3'600'000'000;
  CHECK(woke == std::vector<std::pair<int, std::int64_t>>{{1, hour}, {2, 2 * hour}, {3, 3 * hour}, {720, 720 * hour}});
}

TEST_CASE("a sleep of years does not hold back a sleep of days" * POINTS(1)) {
  // 800 days is beyond what the wheel's levels tell apart (2^36 ms, 795
  // days): that timer waits in the top level's slot 0, now's own slot, to
  // be looked at again a round (2^36 ms) later. The 20-day one, in slot 1
  // of the top level, is due this round: it must not wait behind it.
  rt::Runtime runtime = ch10::paused();
  std::vector<std::pair<int, std::int64_t>> woke;  // (days, microseconds)
  runtime.block_on([&]() -> rt::Task<> {
    Instant start = Instant::now();
    std::vector<rt::JoinHandle<void>> sleepers;
    sleepers.push_back(rt::spawn(sleep_then_record(800 * 24h, start, 800, woke)));
    sleepers.push_back(rt::spawn(sleep_then_record(20 * 24h, start, 20, woke)));
    for (auto& sleeper : sleepers) co_await sleeper;
  }());
  constexpr std::int64_t day = 86'400'000'000;
  CHECK(woke == std::vector<std::pair<int, std::int64_t>>{{20, 20 * day}, {800, 800 * day}});
}

TEST_CASE("advance moves a paused clock and runs the tasks whose timers it fires" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  std::vector<bool> done_after;
  std::int64_t clock = -1;
  runtime.block_on([&]() -> rt::Task<> {
    Instant start = Instant::now();
    bool done = false;
    auto sleeper = rt::spawn([&]() -> rt::Task<> {
      co_await rt::time::sleep(10ms);
      done = true;
    });
    // From a task of its own, which is always ready: the runtime is never
    // idle, so only advance moves the clock.
    co_await rt::spawn([&]() -> rt::Task<> {
      // Until the sleeper waits.
      while (runtime.metrics().num_timers() == 0 && !sleeper.is_finished()) co_await rt::yield_now();
      co_await rt::time::advance(5ms);
      done_after.push_back(done);
      co_await rt::time::advance(4ms);
      done_after.push_back(done);
      co_await rt::time::advance(1ms);
      done_after.push_back(done);
      clock = us(Instant::now() - start);
    });
    co_await sleeper;
  }());
  CHECK(done_after == std::vector<bool>{false, false, true});
  CHECK(clock == 10'000);
}

TEST_CASE("a thousand sleeps on a paused clock end in deadline order each exactly at its deadline" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  std::vector<std::pair<std::int64_t, std::int64_t>> woke;  // (deadline, woke at), in the order they woke
  runtime.block_on([&]() -> rt::Task<> {
    Instant start = Instant::now();
    std::vector<rt::JoinHandle<void>> sleepers;
    std::uint64_t x = 12345;
    for (int i = 0; i < 1000; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;  // a fixed pseudo-random walk
      auto deadline = std::chrono::milliseconds(1 + (x >> 33) % 36'000'000);  // up to 10 hours
      sleepers.push_back(rt::spawn([&woke, start, deadline]() -> rt::Task<> {
        co_await rt::time::sleep_until(start + deadline);
        woke.emplace_back(us(deadline), us(Instant::now() - start));
      }));
    }
    for (auto& sleeper : sleepers) co_await sleeper;
  }());
  REQUIRE(woke.size() == 1000);
  std::size_t off = 0;
  for (const auto& [deadline, at] : woke) off += deadline != at;
  CHECK(off == 0);
  CHECK(std::is_sorted(woke.begin(), woke.end()));
}

TEST_CASE("sleeps from many tasks end at or after their deadlines on both flavours" * POINTS(2)) {
  ch10::on_each_flavour([](rt::Runtime& runtime) {
    std::atomic<int> early{0};
    std::atomic<int> done{0};
    runtime.block_on([&]() -> rt::Task<> {
      std::vector<rt::JoinHandle<void>> sleepers;
      for (int i = 0; i < 200; ++i) {
        sleepers.push_back(rt::spawn([&early, &done, i]() -> rt::Task<> {
          // Three sleeps each, 0.1 to 12 ms, registered from every thread.
          for (int round = 0; round < 3; ++round) {
            Instant deadline = Instant::now() + std::chrono::microseconds(100 + (i * 7919 + round * 104729) % 12'000);
            co_await rt::time::sleep_until(deadline);
            if (Instant::now() < deadline) early.fetch_add(1);
          }
          done.fetch_add(1);
        }));
      }
      // The root sleeps too (on a multi-thread runtime, from outside the workers).
      Instant deadline = Instant::now() + 5ms;
      co_await rt::time::sleep_until(deadline);
      if (Instant::now() < deadline) early.fetch_add(1);
      for (auto& sleeper : sleepers) co_await sleeper;
    }());
    CHECK(done.load() == 200);
    CHECK(early.load() == 0);
    CHECK(runtime.metrics().num_timers() == 0);
    CHECK(runtime.metrics().timer_registration_count() == 601);
  });
}

namespace {

// What creating a sleep inside `runtime` throws, if anything.
std::string sleep_error(rt::Runtime& runtime) {
  return runtime.block_on([]() -> rt::Task<std::string> {
    try {
      co_await rt::time::sleep(1ms);
    } catch (const std::logic_error& error) {
      co_return error.what();
    }
    co_return "nothing thrown";
  }());
}

}  // namespace

TEST_CASE("a sleep needs a runtime with enable_time" * POINTS(1)) {
  CHECK_THROWS_WITH_AS(rt::time::sleep(1ms), doctest::Contains("no reactor running"), std::logic_error);
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().build();
    CHECK(sleep_error(runtime).find("enable_time") != std::string::npos);
  }
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().build();
    CHECK(sleep_error(runtime).find("enable_time") != std::string::npos);
  }
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
    CHECK(sleep_error(runtime).find("enable_time") != std::string::npos);
  }
  // With it (or enable_all), the sleep ends, at or after its deadline.
  for (bool all : {false, true}) {
    rt::Runtime runtime = all ? rt::Builder::new_current_thread().enable_all().build() : ch10::current_thread();
    bool on_time = runtime.block_on([]() -> rt::Task<bool> {
      Instant deadline = Instant::now() + 2ms;
      co_await rt::time::sleep_until(deadline);
      co_return Instant::now() >= deadline;
    }());
    CHECK(on_time);
  }
}

namespace {

rt::Task<> pause_here() {
  rt::time::pause();
  co_return;
}

}  // namespace

TEST_CASE("pause and resume stop and restart the clock of a current-thread runtime only" * POINTS(1)) {
  rt::Runtime runtime = ch10::current_thread();
  runtime.block_on([]() -> rt::Task<> {
    rt::time::pause();
    Instant paused = Instant::now();
    CHECK(Instant::now() == paused);  // stands still
    CHECK_THROWS_AS(rt::time::pause(), std::logic_error);
    // Paused between two ticks, it moves to the tick of the deadline.
    co_await rt::time::sleep(1h);
    Duration slept = Instant::now() - paused;
    CHECK(slept >= 1h);
    CHECK(slept < 1h + 1ms);
    rt::time::resume();
    Instant resumed = Instant::now();
    Instant deadline = resumed + 1ms;
    co_await rt::time::sleep_until(deadline);
    CHECK(Instant::now() >= deadline);
  }());
  rt::Runtime multi = ch10::multi_thread();
  CHECK_THROWS_AS(multi.block_on(pause_here()), std::logic_error);
  CHECK_THROWS_AS(rt::Builder::new_multi_thread().enable_time().start_paused(true).build(), std::invalid_argument);
}
