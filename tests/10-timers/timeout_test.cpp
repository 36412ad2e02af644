// Chapter 10: timeout, a task with a deadline. The task is polled before
// the timer, so a task that is ready at once never touches the wheel; at
// the deadline the unfinished task is destroyed, with what it holds, and
// Elapsed is thrown; the task's own exception comes through as it is.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "timers.hpp"

using namespace std::chrono_literals;
using rt::time::Instant;

namespace {

rt::Task<int> ready(int value) { co_return value; }

rt::Task<int> after_a_yield(int value) {
  co_await rt::yield_now();
  co_return value;
}

// Holds `probe` in its frame, and waits on a gate that nobody opens.
rt::Task<int> wait_holding(ch10::Probe, Gate& gate) {
  co_await gate.wait();
  co_return 1;
}

struct InnerError : std::runtime_error {
  InnerError() : std::runtime_error("the inner task failed") {}
};

rt::Task<int> fail_at_once() {
  throw InnerError();
  co_return 0;
}

rt::Task<int> fail_after(rt::time::Duration duration) {
  co_await rt::time::sleep(duration);
  throw InnerError();
  co_return 0;
}

// `task` within `limit`, as a task: a timeout is a leaf, awaited in one.
rt::Task<int> within(rt::time::Duration limit, rt::Task<int> task) {
  co_return co_await rt::time::timeout(limit, std::move(task));
}

// What awaiting `task` within a timeout threw: "Elapsed", "inner", or
// "nothing", and when (microseconds since the start).
rt::Task<std::string> outcome_of(rt::Task<int> task, rt::time::Duration limit) {
  Instant start = Instant::now();
  std::string what;
  try {
    co_await rt::time::timeout(limit, std::move(task));
    what = "nothing";
  } catch (const rt::time::Elapsed&) {
    what = "Elapsed";
  } catch (const InnerError&) {
    what = "inner";
  }
  co_return what + " at " + std::to_string(ch10::us(Instant::now() - start)) + " us";
}

}  // namespace

TEST_CASE("a timeout around a ready task registers no timer and one around a pending task leaves none" * POINTS(1)) {
  ch10::on_each_flavour([](rt::Runtime& runtime) {
    CHECK(runtime.block_on(within(1s, ready(7))) == 7);
    CHECK(runtime.metrics().timer_registration_count() == 0);
    // Not ready at once: the timer is registered, and gone with the timeout.
    CHECK(runtime.block_on(within(1h, after_a_yield(8))) == 8);
    CHECK(runtime.metrics().timer_registration_count() == 1);
    CHECK(runtime.metrics().num_timers() == 0);
  });
}

TEST_CASE("an elapsed timeout throws Elapsed and drops the unfinished task" * POINTS(1)) {
  {
    INFO("on a paused clock: at the deadline exactly");
    rt::Runtime runtime = ch10::paused();
    std::atomic<int> destroyed{0};
    Gate gate;
    int destroyed_when_caught = -1;
    std::string what = runtime.block_on([&]() -> rt::Task<std::string> {
      std::string what = co_await outcome_of(wait_holding(ch10::Probe(destroyed), gate), 10ms);
      destroyed_when_caught = destroyed.load();
      co_return what;
    }());
    CHECK(what == "Elapsed at 10000 us");
    CHECK(destroyed_when_caught == 1);  // destroyed by the timeout, not later by the runtime
    CHECK(runtime.metrics().num_timers() == 0);
  }
  ch10::on_each_flavour([](rt::Runtime& runtime) {
    INFO("on the real clock: at or after the deadline");
    std::atomic<int> destroyed{0};
    Gate gate;
    bool on_time = false;
    bool elapsed = false;
    int destroyed_when_caught = -1;
    runtime.block_on([&]() -> rt::Task<> {
      Instant deadline = Instant::now() + 3ms;
      try {
        co_await rt::time::timeout_at(deadline, wait_holding(ch10::Probe(destroyed), gate));
      } catch (const rt::time::Elapsed&) {
        elapsed = true;
      }
      on_time = Instant::now() >= deadline;
      destroyed_when_caught = destroyed.load();
    }());
    CHECK(elapsed);
    CHECK(on_time);
    CHECK(destroyed_when_caught == 1);
  });
}

TEST_CASE("the inner task's exception comes through as itself and not as Elapsed" * POINTS(1)) {
  rt::Runtime runtime = ch10::paused();
  CHECK(runtime.block_on(outcome_of(fail_at_once(), 1h)) == "inner at 0 us");
  CHECK(runtime.block_on(outcome_of(fail_after(5ms), 1h)) == "inner at 5000 us");
  CHECK(runtime.block_on(outcome_of(fail_after(1h), 5ms)) == "Elapsed at 5000 us");
  CHECK(runtime.block_on(outcome_of(after_a_yield(1), 5ms)) == "nothing at 0 us");
  CHECK(runtime.metrics().num_timers() == 0);
}
