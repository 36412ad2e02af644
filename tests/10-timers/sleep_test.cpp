// Chapter 10: sleeping on the timer wheel.
#include <chrono>

#include "graded.hpp"
#include "rt/rt.hpp"

using namespace std::chrono_literals;

TEST_CASE("a sleep on a paused clock ends at its deadline" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_time().start_paused(true).build();
  auto elapsed = runtime.block_on([]() -> rt::Task<rt::time::Duration> {
    rt::time::Instant start = rt::time::Instant::now();
    co_await rt::time::sleep(3600s);
    co_return rt::time::Instant::now() - start;
  }());
  CHECK(elapsed >= 3600s);
  CHECK(elapsed < 3601s);
}

TEST_CASE("a real sleep ends after its deadline on either flavour" * POINTS(2)) {
  for (bool multi : {false, true}) {
    rt::Runtime runtime = multi ? rt::Builder::new_multi_thread().worker_threads(2).enable_all().build()
                                : rt::Builder::new_current_thread().enable_all().build();
    auto elapsed = runtime.block_on([]() -> rt::Task<rt::time::Duration> {
      rt::time::Instant start = rt::time::Instant::now();
      auto child = rt::spawn([]() -> rt::Task<> { co_await rt::time::sleep(5ms); });
      co_await rt::time::sleep(10ms);
      co_await child;
      co_return rt::time::Instant::now() - start;
    }());
    CHECK(elapsed >= 10ms);
  }
}

TEST_CASE("a timeout around a ready task registers no timer" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_time().build();
  int value = runtime.block_on([]() -> rt::Task<int> {
    co_return co_await rt::time::timeout(1s, []() -> rt::Task<int> { co_return 7; }());
  }());
  CHECK(value == 7);
  CHECK(runtime.metrics().timer_registration_count() == 0);
}
