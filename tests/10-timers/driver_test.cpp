// Chapter 10: the time driver, which sleeps in epoll_wait no longer than
// its next timer. A sooner timer registered from another thread while it
// sleeps (with no timer, or towards one an hour away) must wake it; it
// must never sleep past a pending timer, nor at all past an overdue one;
// a paused clock jumps to a timer only when no I/O event is ready; and a
// runtime that shuts down with timers pending neither hangs nor leaks. The test hook
// rt::detail::before_time_driver_parks says when the driver is about to
// sleep, and with what timeout: no sleep is used to wait for a thread.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "counting_waker.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "io.hpp"
#include "rt/rt.hpp"
#include "rt/time/driver.hpp"
#include "scoped_hook.hpp"
#include "timers.hpp"

using namespace std::chrono_literals;
using rt::time::Instant;
using rt::time::Sleep;

namespace {

using DriverHook = rt_test::ScopedHook<void (*)(int)>;

rt::Task<> sleep_for(rt::time::Duration duration) { co_await rt::time::sleep(duration); }

rt::Task<> until_opened(Gate& gate) { co_await gate.wait(); }

// --- knowing that the driver is about to sleep ---------------------------

// Counts down once, the first time the driver is about to sleep in
// epoll_wait with the timeout a test waits for: none (at_least -1), or at
// least `at_least` ms (towards a far timer).
class ParkWatch {
 public:
  explicit ParkWatch(int at_least) : at_least_(at_least) {}

  // Blocks until the driver is about to sleep so (or release() was called).
  void wait() { parked_.wait(); }
  void release() {
    if (armed_.exchange(false)) parked_.count_down();
  }
  void seen(int timeout) {
    if (at_least_ < 0 ? timeout < 0 : timeout >= at_least_) release();
  }

 private:
  int at_least_;
  std::atomic<bool> armed_{true};
  std::latch parked_{1};
};

std::atomic<ParkWatch*> park_watch{nullptr};

void watch_park(int timeout) {
  if (ParkWatch* watch = park_watch.load()) watch->seen(timeout);
}

// Installs `watch` and the hook, and always removes them. Declare it
// before the runtime: the runtime's threads are gone before it is.
class WatchParks {
 public:
  explicit WatchParks(ParkWatch& watch) : hook_(rt::detail::before_time_driver_parks, &watch_park) {
    park_watch = &watch;
  }
  ~WatchParks() { park_watch = nullptr; }

 private:
  DriverHook hook_;
};

const char* towards_what(int at_least) {
  return at_least < 0 ? "the driver sleeps with no timer" : "the driver sleeps towards a timer an hour away";
}

}  // namespace

TEST_CASE("a sooner timer from another thread wakes the sleeping driver of a current-thread runtime" * POINTS(2)) {
  for (int at_least : {-1, 1000}) {
    INFO(towards_what(at_least));
    ParkWatch watch(at_least);
    WatchParks parks(watch);
    rt::Runtime runtime = ch10::current_thread();
    Gate gate;
    std::atomic<bool> slept{false};
    std::exception_ptr failure;
    // Once this thread holds the driver and is about to sleep in it, the
    // other registers a 1 ms sleep: its block_on cannot take the
    // runtime's core, so it polls its sleep on its own thread, then waits
    // on a condition variable until the driver fires the timer.
    std::thread other([&] {
      watch.wait();
      try {
        runtime.handle().block_on(sleep_for(1ms));
        slept = true;
      } catch (...) {
        failure = std::current_exception();
      }
      gate.open();  // lets this thread's block_on end
    });
    {
      struct Join {  // even if block_on throws: no thread left waiting
        ParkWatch& watch;
        Gate& gate;
        std::thread& thread;
        ~Join() {
          watch.release();
          gate.open();
          thread.join();
        }
      } join{watch, gate, other};
      if (at_least < 0) {
        runtime.block_on(until_opened(gate));
      } else {
        runtime.block_on([&]() -> rt::Task<> { co_await rt::time::timeout(1h, until_opened(gate)); }());
      }
    }
    if (failure) std::rethrow_exception(failure);
    CHECK(slept.load());
  }
}

TEST_CASE("a sooner timer from outside wakes the sleeping driver of a multi-thread runtime" * POINTS(1)) {
  for (int at_least : {-1, 1000}) {
    INFO(towards_what(at_least));
    ParkWatch watch(at_least);
    WatchParks parks(watch);
    rt::Runtime runtime = ch10::multi_thread(2);
    std::optional<rt::JoinHandle<void>> far;
    if (at_least >= 0) far.emplace(runtime.spawn(sleep_for(1h)));
    watch.wait();  // a worker holds the driver and is about to sleep in it
    // Registered from this thread, outside the workers: nobody else wakes
    // the worker in epoll_wait.
    bool on_time = runtime.block_on([]() -> rt::Task<bool> {
      Instant deadline = Instant::now() + 1ms;
      co_await rt::time::sleep_until(deadline);
      co_return Instant::now() >= deadline;
    }());
    CHECK(on_time);
  }
}

namespace {

// --- the driver never sleeps past a pending timer ------------------------

// While armed (bound >= 0), every timeout the driver is about to sleep
// with must be at most `bound` ms, and never "no timeout". One that is
// not wakes the test's task, which then gives up at once instead of
// sleeping on with the driver.
struct ParkLimit {
  std::atomic<int> bound{-1};
  std::atomic<int> parks{0};           // checked, within the bound
  std::atomic<bool> overslept{false};
  std::atomic<int> worst{0};           // the timeout that was too long
  std::mutex mutex;
  rt::Waker task;
};

std::atomic<ParkLimit*> park_limit{nullptr};

void limit_park(int timeout) {
  ParkLimit* limit = park_limit.load();
  if (!limit) return;
  int bound = limit->bound.load();
  if (bound < 0) return;
  if (timeout >= 0 && timeout <= bound) {
    limit->parks.fetch_add(1);
    return;
  }
  limit->worst = timeout;
  limit->overslept = true;
  std::lock_guard lock(limit->mutex);
  limit->task.wake_by_ref();  // wakes the driver too: it is this thread's
}

class LimitParks {
 public:
  explicit LimitParks(ParkLimit& limit) : hook_(rt::detail::before_time_driver_parks, &limit_park) {
    park_limit = &limit;
  }
  ~LimitParks() { park_limit = nullptr; }

 private:
  DriverHook hook_;
};

// Awaits `sleep` with the parks limited to `bound` ms while it is pending;
// ready at once if the driver was about to oversleep.
class SleepWatched : public rt::Leaf<SleepWatched> {
 public:
  SleepWatched(Sleep& sleep, ParkLimit& limit, int bound) : sleep_(sleep), limit_(limit), bound_(bound) {}
  bool poll(rt::Context& cx) override {
    {
      std::lock_guard lock(limit_.mutex);
      limit_.task = cx.waker();
    }
    if (limit_.overslept) return true;
    bool ready = sleep_.poll(cx);
    limit_.bound = ready ? -1 : bound_;
    return ready;
  }
  void await_resume() const noexcept {}

 private:
  Sleep& sleep_;
  ParkLimit& limit_;
  int bound_;
};

}  // namespace

TEST_CASE("the driver never sleeps past its next timer" * POINTS(2)) {
  ParkLimit limit;
  LimitParks parks(limit);
  rt::Runtime runtime = ch10::current_thread();
  std::vector<int> late;  // how many of the sleeps ended before their deadline
  runtime.block_on([&]() -> rt::Task<> {
    // An hour away: the driver must still wake for each sooner one.
    CountingWaker far_waker;  // first: it outlives the sleep, which holds a clone
    auto far = std::make_unique<Sleep>(Instant::now() + 1h);
    rt::Context far_cx(far_waker.waker());
    REQUIRE_FALSE(far->poll(far_cx));
    for (int ms : {20, 3, 1}) {
      INFO("a sleep of " << ms << " ms");
      auto sleep = std::make_unique<Sleep>(Instant::now() + std::chrono::milliseconds(ms));
      // Its deadline is at most ms + 1 ticks after now's (rounded down).
      co_await SleepWatched(*sleep, limit, ms + 1);
      INFO("the driver was about to sleep for " << limit.worst.load() << " ms (-1: with no timeout)");
      REQUIRE_FALSE(limit.overslept.load());
      CHECK(Instant::now() >= sleep->deadline());
    }
    CHECK(limit.parks.load() > 0);  // it did sleep, towards them
    std::lock_guard lock(limit.mutex);
    limit.task = rt::Waker();
  }());
}

TEST_CASE("a timer overdue when the driver parks makes it look without sleeping" * POINTS(1)) {
  // The thread ran past a deadline without parking (a long poll): the
  // wheel's next timer is behind now. The driver must not sleep at all;
  // "deadline minus now" in unsigned ticks would sleep for ever instead.
  ParkLimit limit;
  LimitParks parks(limit);
  rt::Runtime runtime = ch10::current_thread();
  runtime.block_on([&]() -> rt::Task<> {
    CountingWaker first_waker;  // first: it outlives the sleep, which holds a clone
    auto sleep = std::make_unique<Sleep>(Instant::now() + 2ms);
    rt::Context cx(first_waker.waker());
    REQUIRE_FALSE(sleep->poll(cx));
    Instant overdue = sleep->deadline() + 3ms;
    while (Instant::now() < overdue) {
      // busy, as a long poll would be: no park, so the timer stays due in the wheel
    }
    co_await SleepWatched(*sleep, limit, 0);
    INFO("the driver was about to sleep for " << limit.worst.load() << " ms (-1: with no timeout)");
    CHECK_FALSE(limit.overslept.load());
    CHECK(sleep->is_elapsed());
    std::lock_guard lock(limit.mutex);
    limit.task = rt::Waker();
  }());
}

namespace {

rt::Task<> read_one_byte(rt::net::TcpStream& stream, Instant start, std::int64_t& read_at, bool& reading) {
  char byte = 0;
  reading = true;
  co_await stream.read(std::span<char>(&byte, 1));
  read_at = ch10::us(Instant::now() - start);
}

}  // namespace

TEST_CASE("a paused clock does not jump to the next timer while an I/O event is ready" * POINTS(2)) {
  // Paused, the driver moves the clock to the next timer only when
  // nothing else can happen: a read whose data has come happens now, not
  // after the hour that another task sleeps.
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().enable_time().start_paused(true).build();
  std::int64_t read_at = -1;
  runtime.block_on([&]() -> rt::Task<> {
    Instant start = Instant::now();
    auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
    rt::JoinHandle<void> sleeper = rt::spawn(sleep_for(1h));
    bool reading = false;
    rt::JoinHandle<void> reader = rt::spawn(read_one_byte(stream, start, read_at, reading));
    while (!reading) co_await rt::yield_now();  // the reader waits on its read now
    rt_test::send_raw(peer.fd(), "x");
    rt_test::wait_for_data(stream.fd());  // in the socket before the driver looks
    co_await reader;
    sleeper.abort();
  }());
  INFO("microseconds of clock time when the ready read completed (3600000000: the clock jumped to the sleeper's timer)");
  CHECK(read_at == 0);
}

namespace {

// --- shutdown ------------------------------------------------------------

rt::Task<> sleep_holding(ch10::Probe, rt::time::Duration duration) { co_await rt::time::sleep(duration); }

rt::Task<> tick_holding(ch10::Probe, rt::time::Duration period) {
  rt::time::Interval interval = rt::time::interval(period);
  co_await interval.tick();  // at once
  co_await interval.tick();
}

rt::Task<> timeout_holding(ch10::Probe, Gate& gate) { co_await rt::time::timeout(1h, until_opened(gate)); }

}  // namespace

TEST_CASE("shutdown with pending timers neither hangs nor leaks" * POINTS(2)) {
  for (bool multi : {false, true}) {
    INFO((multi ? "on a multi-thread runtime with 2 workers" : "on the current-thread runtime"));
    std::atomic<int> destroyed{0};
    Gate gate;  // never opened
    CountingWaker waker;
    std::unique_ptr<Sleep> outliving;  // polled by hand; destroyed after its runtime
    {
      rt::Runtime runtime = multi ? ch10::multi_thread() : ch10::current_thread();
      runtime.block_on([&]() -> rt::Task<> {
        std::vector<rt::JoinHandle<void>> tasks;  // detached when dropped: they sleep on
        for (int i = 0; i < 60; ++i) {
          tasks.push_back(rt::spawn(sleep_holding(ch10::Probe(destroyed), 1h + std::chrono::milliseconds(i))));
          if (i % 3 == 0) tasks.push_back(rt::spawn(tick_holding(ch10::Probe(destroyed), 1h)));
          if (i % 3 == 1) tasks.push_back(rt::spawn(timeout_holding(ch10::Probe(destroyed), gate)));
        }
        outliving = std::make_unique<Sleep>(Instant::now() + 1h);
        rt::Context cx(waker.waker());
        REQUIRE_FALSE(outliving->poll(cx));
        while (runtime.metrics().num_timers() < 101) {
          for (auto& task : tasks) REQUIRE_FALSE(task.is_finished());  // each waits an hour, unless it failed
          co_await rt::yield_now();
        }
      }());
      CHECK(destroyed.load() == 0);
    }  // shut down here, an hour early
    CHECK(destroyed.load() == 100);  // every task, with what it held
    CHECK(waker.wakes() == 1);       // the timer fired at shutdown: nobody waits on it forever
    outliving = nullptr;             // its runtime is gone: this touches nothing freed
    CHECK(waker.held() == 0);
  }
}
