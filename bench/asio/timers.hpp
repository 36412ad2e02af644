// timers and timeout_ready on Asio, with asio::steady_timer on the pool's
// io_context (bench/asio/pool.hpp), as a C++ user would write them today.
//
// timers: 100,000 coroutines each wait once on a steady_timer of 1 to
// 100 ms (async_wait with use_awaitable), spawned together from the thread
// that drives the pool; timed in CPU time, as on the course's runtimes.
//
// timeout_ready: Tokio's time_timeout. Asio has no timeout around an
// awaitable but its awaitable operators (a parallel group, which spawns a
// coroutine per side); what an Asio user writes for a deadline on an
// operation is a watchdog: a steady_timer set to 1 s, waited on with a
// handler that would cancel the operation, and cancelled when the
// operation completed first. So each timeout here is a steady_timer
// constructed, armed (async_wait: into the timer queue), and cancelled
// (out of it, and its handler runs with operation_aborted), around a
// coroutine that returns at once.
#pragma once

#include <asio.hpp>
#include <chrono>
#include <stdexcept>

#include "../workloads.hpp"
#include "pool.hpp"

namespace bench::asio_side {

// ------------------------------------------------------------------ timers

inline asio::awaitable<void> sleeper(std::chrono::milliseconds duration, Countdown& done) {
  asio::steady_timer timer(co_await asio::this_coro::executor, duration);
  co_await timer.async_wait(asio::use_awaitable);
  done.count_down();
}

class Timers : public Workload {
 public:
  Timers(Flavour flavour, int workers, Size size) : sleeps_(timer_sleeps(size)), pool_(flavour, workers) {}

  void iteration() override {
    done_.arm(sleeps_);
    for (long i = 0; i < sleeps_; ++i) {
      asio::co_spawn(pool_.context(), sleeper(std::chrono::milliseconds(timer_sleep_ms(i)), done_), asio::detached);
    }
    pool_.drive_until(done_);
  }

 private:
  long sleeps_;
  Countdown done_;
  Pool pool_;
};

// ----------------------------------------------------------- timeout_ready

inline asio::awaitable<long> quick_job() { co_return 1; }

inline asio::awaitable<void> timeouts(long count, Countdown& done) {
  auto executor = co_await asio::this_coro::executor;
  for (long i = 0; i < count; ++i) {
    asio::steady_timer watchdog(executor, std::chrono::seconds(1));
    watchdog.async_wait([](asio::error_code error) {
      // A ready job always beats a 1 s deadline: the wait is cancelled.
      if (error != asio::error::operation_aborted) throw std::logic_error("a ready task timed out");
    });
    long value = co_await quick_job();
    watchdog.cancel();
    if (value != 1) throw std::logic_error("the job returned another value");
  }
  done.count_down();
}

class TimeoutReady : public Workload {
 public:
  TimeoutReady(Flavour flavour, int workers)
      : tasks_(timeout_tasks(flavour, workers)), pool_(flavour, workers) {}

  void iteration() override {
    done_.arm(tasks_);
    for (long t = 0; t < tasks_; ++t) {
      // The remainder goes to the first tasks: timeouts_per_iteration in all.
      long count = timeouts_per_iteration / tasks_ + (t < timeouts_per_iteration % tasks_ ? 1 : 0);
      asio::co_spawn(pool_.context(), timeouts(count, done_), asio::detached);
    }
    pool_.drive_until(done_);
  }

 private:
  long tasks_;
  Countdown done_;
  Pool pool_;
};

}  // namespace bench::asio_side
