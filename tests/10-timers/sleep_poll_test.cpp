// Chapter 10: a Sleep polled by hand, with wakers of the test's own, inside
// a runtime whose clock is paused and moved only by advance(): when it
// registers its timer, whom it wakes, what reset does to its deadline and
// waker, what its destruction leaves in the wheel, and a waker that calls
// back into the timer from inside wake().
#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "counting_waker.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "timers.hpp"

using namespace std::chrono_literals;
using rt::time::Duration;
using rt::time::Instant;
using rt::time::Sleep;

namespace {

// A waker whose wake re-arms its sleep: it moves the deadline one period
// later, from inside wake(), as a periodic timer would. The time driver
// must call it with its lock released: reset takes that lock.
class RearmingWaker {
 public:
  RearmingWaker(Sleep& sleep, Duration period)
      : sleep_(sleep), period_(period), waker_(rt::Waker::from_raw({this, &vtable})) {}
  RearmingWaker(const RearmingWaker&) = delete;
  RearmingWaker& operator=(const RearmingWaker&) = delete;

  const rt::Waker& waker() const { return waker_; }
  int wakes() const { return wakes_.load(); }
  int held() const { return refs_.load() - 1; }

 private:
  static RearmingWaker& self(const void* data) {
    return *static_cast<RearmingWaker*>(const_cast<void*>(data));
  }
  static rt::RawWaker clone(const void* data) {
    self(data).refs_.fetch_add(1);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    self(data).rearm();
    self(data).refs_.fetch_sub(1);
  }
  static void wake_by_ref(const void* data) { self(data).rearm(); }
  static void drop(const void* data) { self(data).refs_.fetch_sub(1); }

  void rearm() {
    wakes_.fetch_add(1);
    sleep_.reset(sleep_.deadline() + period_);
  }

  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  Sleep& sleep_;
  Duration period_;
  std::atomic<int> wakes_{0};
  std::atomic<int> refs_{1};
  rt::Waker waker_;  // last: it refers to the counters above
};

}  // namespace

TEST_CASE("a sleep polled from one waker then another wakes only the newest" * POINTS(2)) {
  rt::Runtime runtime = ch10::paused();
  runtime.block_on([]() -> rt::Task<> {
    CountingWaker first, second;  // first: they outlive the sleep, which holds a clone
    auto sleep = std::make_unique<Sleep>(Instant::now() + 10ms);
    rt::Context first_cx(first.waker()), second_cx(second.waker());
    REQUIRE_FALSE(sleep->poll(first_cx));
    CHECK(first.held() == 1);
    REQUIRE_FALSE(sleep->poll(second_cx));  // the sleep moved to another task
    CHECK(first.held() == 0);               // the replaced waker was dropped
    CHECK(second.held() == 1);
    REQUIRE_FALSE(sleep->poll(second_cx));  // a spurious poll changes nothing
    CHECK(second.held() == 1);
    co_await rt::time::advance(9ms);
    CHECK(second.wakes() == 0);
    CHECK_FALSE(sleep->is_elapsed());
    co_await rt::time::advance(1ms);
    CHECK(first.wakes() == 0);
    CHECK(second.wakes() == 1);
    CHECK(second.held() == 0);  // woken by value: nothing kept
    CHECK(sleep->is_elapsed());
    CHECK(sleep->poll(second_cx));
  }());
}

TEST_CASE("a sleep never polled says it elapsed exactly from its deadline's tick" * POINTS(1)) {
  // Not in the wheel yet, it answers from the clock: at its deadline, not
  // a tick later (a select that checks is_elapsed first would wait a
  // millisecond too long) and not a tick earlier.
  rt::Runtime runtime = ch10::paused();
  runtime.block_on([]() -> rt::Task<> {
    Sleep sleep(Instant::now() + 5ms);
    co_await rt::time::advance(4ms);
    CHECK_FALSE(sleep.is_elapsed());
    co_await rt::time::advance(1ms);
    INFO("the clock stands at the deadline");
    CHECK(sleep.is_elapsed());
  }());
}

TEST_CASE("a waker that resets its sleep from inside wake re-arms it" * POINTS(2)) {
  rt::Runtime runtime = ch10::paused();
  runtime.block_on([&runtime]() -> rt::Task<> {
    Instant start = Instant::now();
    auto sleep = std::make_unique<Sleep>(start + 10ms);
    RearmingWaker waker(*sleep, 10ms);
    struct DestroyFirst {  // the sleep goes before its waker, even if a check throws
      std::unique_ptr<Sleep>& sleep;
      ~DestroyFirst() { sleep = nullptr; }
    } destroy_first{sleep};
    rt::Context cx(waker.waker());
    REQUIRE_FALSE(sleep->poll(cx));
    co_await rt::time::advance(10ms);  // fires: its waker moves it to 20 ms
    CHECK(waker.wakes() == 1);
    CHECK(ch10::us(sleep->deadline() - start) == 20'000);
    CHECK_FALSE(sleep->is_elapsed());
    REQUIRE_FALSE(sleep->poll(cx));  // waiting again
    co_await rt::time::advance(9ms);
    CHECK(waker.wakes() == 1);
    co_await rt::time::advance(1ms);
    CHECK(waker.wakes() == 2);
    CHECK(ch10::us(sleep->deadline() - start) == 30'000);
    CHECK(runtime.metrics().num_timers() == 1);
    sleep = nullptr;
    CHECK(runtime.metrics().num_timers() == 0);
    CHECK(waker.held() == 0);
  }());
}

TEST_CASE("Sleep reset moves its deadline later and earlier" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  runtime.block_on([&runtime]() -> rt::Task<> {
    Instant start = Instant::now();
    {
      INFO("later: from 10 ms to 30 ms, after its first poll");
      CountingWaker waker;
      auto sleep = std::make_unique<Sleep>(start + 10ms);
      rt::Context cx(waker.waker());
      REQUIRE_FALSE(sleep->poll(cx));
      sleep->reset(start + 30ms);
      CHECK(sleep->deadline() == start + 30ms);
      co_await rt::time::advance(10ms);
      CHECK(waker.wakes() == 0);
      CHECK_FALSE(sleep->is_elapsed());
      REQUIRE_FALSE(sleep->poll(cx));
      co_await rt::time::advance(19ms);
      CHECK(waker.wakes() == 0);
      co_await rt::time::advance(1ms);
      CHECK(waker.wakes() == 1);  // the waker it had is kept across the reset
      CHECK(sleep->poll(cx));
    }
    Instant now = Instant::now();  // start + 30 ms
    {
      INFO("earlier: from an hour to 5 ms");
      CountingWaker waker;
      auto sleep = std::make_unique<Sleep>(now + 1h);
      rt::Context cx(waker.waker());
      REQUIRE_FALSE(sleep->poll(cx));
      sleep->reset(now + 5ms);
      co_await rt::time::advance(4ms);
      CHECK(waker.wakes() == 0);
      co_await rt::time::advance(1ms);
      CHECK(waker.wakes() == 1);
      CHECK(sleep->poll(cx));
    }
    now = Instant::now();  // start + 35 ms
    {
      INFO("to a deadline already reached: woken at once");
      CountingWaker waker;
      auto sleep = std::make_unique<Sleep>(now + 1h);
      rt::Context cx(waker.waker());
      REQUIRE_FALSE(sleep->poll(cx));
      sleep->reset(now);
      CHECK(waker.wakes() == 1);
      CHECK(sleep->is_elapsed());
      CHECK(sleep->poll(cx));
      CHECK(runtime.metrics().num_timers() == 0);
    }
    {
      INFO("before its first poll: it registers at the new deadline");
      CountingWaker waker;
      auto sleep = std::make_unique<Sleep>(now + 1h);
      sleep->reset(now + 3ms);
      rt::Context cx(waker.waker());
      REQUIRE_FALSE(sleep->poll(cx));
      co_await rt::time::advance(3ms);
      CHECK(waker.wakes() == 1);
      CHECK(sleep->poll(cx));
    }
    now = Instant::now();  // start + 38 ms
    {
      INFO("a task waiting on a sleep that another task moves wakes at the new deadline");
      auto sleep = std::make_unique<Sleep>(now + 1h);
      auto waiter = rt::spawn([&]() -> rt::Task<Duration> {
        co_await *sleep;
        co_return Instant::now() - now;
      });
      auto mover = rt::spawn([&]() -> rt::Task<> {
        // Until the waiter waits on it.
        while (runtime.metrics().num_timers() == 0 && !waiter.is_finished()) co_await rt::yield_now();
        sleep->reset(now + 7ms);
      });
      co_await mover;
      Duration waited = co_await waiter;
      CHECK(ch10::us(waited) == 7'000);  // the clock jumped to the new deadline, not to the old one
    }
  }());
}

TEST_CASE("a sleep registers at its first poll and leaves the wheel when destroyed" * POINTS(2)) {
  rt::Runtime runtime = ch10::paused();
  runtime.block_on([&runtime]() -> rt::Task<> {
    rt::RuntimeMetrics metrics = runtime.metrics();
    {
      auto never_polled = rt::time::sleep(1h);
      CHECK(metrics.timer_registration_count() == 0);  // made, not awaited: nothing registered
      CHECK(metrics.num_timers() == 0);
    }
    CHECK(metrics.num_timers() == 0);
    CountingWaker waker;
    auto sleep = std::make_unique<Sleep>(Instant::now() + 10ms);
    rt::Context cx(waker.waker());
    REQUIRE_FALSE(sleep->poll(cx));
    CHECK(metrics.timer_registration_count() == 1);
    CHECK(metrics.num_timers() == 1);
    REQUIRE_FALSE(sleep->poll(cx));
    CHECK(metrics.timer_registration_count() == 1);  // registered once
    sleep = nullptr;
    CHECK(metrics.num_timers() == 0);
    CHECK(waker.held() == 0);
    CHECK(waker.wakes() == 0);

    // Tasks cancelled while they sleep take their timers with them.
    std::vector<rt::JoinHandle<void>> sleepers;
    for (int i = 0; i < 50; ++i) {
      sleepers.push_back(rt::spawn([]() -> rt::Task<> { co_await rt::time::sleep(1h); }));
    }
    while (metrics.num_timers() < 50) {
      for (auto& sleeper : sleepers) REQUIRE_FALSE(sleeper.is_finished());  // each waits an hour, unless it failed
      co_await rt::yield_now();
    }
    CHECK(metrics.timer_registration_count() == 51);
    for (auto& sleeper : sleepers) sleeper.abort();
    int cancelled = 0;
    for (auto& sleeper : sleepers) {
      try {
        co_await sleeper;
      } catch (const rt::JoinError& error) {
        cancelled += error.is_cancelled();
      }
    }
    CHECK(cancelled == 50);
    CHECK(metrics.num_timers() == 0);
  }());
}
