// timers and timeout_ready, on the course's runtimes from chapter 10 on
// (rt::time, and a runtime built with timers enabled).
//
// timers: 100,000 tasks each sleep once, for 1 to 100 ms, all spawned
// together, so that the sleeps overlap and an iteration lasts about
// 100 ms of wall time; it is timed in CPU time (bench/workloads.hpp), so
// that a figure is what a sleep costs: its registration, the wheel's
// cascades and firing, the wake-up and the poll, and its task's spawn.
//
// timeout_ready: Tokio's benches/time_timeout.rs. A 1 s timeout around a
// task that is ready at once, 100,000 times, in one task per worker. A
// timeout polls its task first, and a Sleep registers only when first
// polled, so none of them touches the wheel: each iteration checks it with
// the timer_registration_count metric, and fails if it moved.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "../workloads.hpp"
#include "latch.hpp"
#include "runtime.hpp"

namespace bench::course {

#ifdef RT_HAS_TIME

// Tokio's benchmarks build their runtimes with enable_all().
inline std::unique_ptr<rt::Runtime> make_timer_runtime(Flavour flavour, int workers) {
  if (flavour == Flavour::multi_thread) {
    return std::unique_ptr<rt::Runtime>(
        new rt::Runtime(rt::Builder::new_multi_thread().worker_threads(workers).enable_all().build()));
  }
  return std::unique_ptr<rt::Runtime>(new rt::Runtime(rt::Builder::new_current_thread().enable_all().build()));
}

// ------------------------------------------------------------------ timers

inline rt::Task<> sleeper(std::chrono::milliseconds duration, Latch& done) {
  co_await rt::time::sleep(duration);
  done.count_down();
}

// Spawned from block_on, as Tokio's time benchmarks spawn theirs (on the
// multi-thread flavour, from outside the workers).
inline rt::Task<> sleep_all(long sleeps, Latch& done) {
  for (long i = 0; i < sleeps; ++i) {
    (void)rt::spawn(sleeper(std::chrono::milliseconds(timer_sleep_ms(i)), done));  // detached
  }
  co_await done.wait();
}

class Timers : public Workload {
 public:
  Timers(Flavour flavour, int workers, Size size)
      : sleeps_(timer_sleeps(size)), runtime_(make_timer_runtime(flavour, workers)) {}

  void iteration() override {
    Latch done(sleeps_);
    std::uint64_t before = runtime_->metrics().timer_registration_count();
    runtime_->block_on(sleep_all(sleeps_, done));
    // Every sleep was polled, and registered once (Sleep's first poll).
    if (runtime_->metrics().timer_registration_count() - before != static_cast<std::uint64_t>(sleeps_)) {
      throw std::logic_error("not every sleep went into the wheel");
    }
  }

 private:
  long sleeps_;
  std::unique_ptr<rt::Runtime> runtime_;
};

// ----------------------------------------------------------- timeout_ready

inline rt::Task<long> quick_job() { co_return 1; }

inline rt::Task<> timeouts(long count) {
  for (long i = 0; i < count; ++i) {
    long value = co_await rt::time::timeout(std::chrono::seconds(1), quick_job());
    if (value != 1) throw std::logic_error("the timeout returned another value");
  }
}

class TimeoutReady : public Workload {
 public:
  TimeoutReady(Flavour flavour, int workers)
      : tasks_(timeout_tasks(flavour, workers)), runtime_(make_timer_runtime(flavour, workers)) {}

  void iteration() override {
    std::uint64_t before = runtime_->metrics().timer_registration_count();
    std::vector<rt::JoinHandle<void>> handles;
    for (long t = 0; t < tasks_; ++t) {
      // The remainder goes to the first tasks: timeouts_per_iteration in all.
      long count = timeouts_per_iteration / tasks_ + (t < timeouts_per_iteration % tasks_ ? 1 : 0);
      handles.push_back(runtime_->spawn(timeouts(count)));
    }
    runtime_->block_on(join_all(handles));
    if (runtime_->metrics().timer_registration_count() != before) {
      throw std::logic_error("a timeout around a ready task registered a timer in the wheel");
    }
  }

 private:
  long tasks_;
  std::unique_ptr<rt::Runtime> runtime_;
};

#endif

}  // namespace bench::course
