//@ file local-queues..
// Stats: a worker's measure of how long its tasks' polls take, from which
// it tunes how often it looks at the global queue. Mirrors Tokio's
// runtime/scheduler/multi_thread/stats.rs.
//
// A worker that checks the global queue every N ticks makes a task queued
// there wait for up to N polls. With 1 µs polls, 61 is nothing; with 1 ms
// polls it is 61 ms. So the worker keeps an exponentially weighted moving
// average of the poll time, updated once per batch of polls (the polls
// between two parks or two maintenance ticks), and aims at a look every
// 200 µs: interval = 200 µs / average, within 2..127.
#pragma once

#include <chrono>
#include <cstdint>

namespace rt::detail {

class Stats {
 public:
  using Clock = std::chrono::steady_clock;

  // A batch of polls starts, at `now`.
  void start_batch(Clock::time_point now) {
    batch_started_ = now;
    polls_in_batch_ = 0;
  }
  void start_poll() { ++polls_in_batch_; }
  // The batch ends at `now`: fold its mean poll time into the average.
  void end_batch(Clock::time_point now);

  // The interval this average asks for.
  std::uint32_t tuned_global_queue_interval() const;
  // The average poll time, in nanoseconds (Tokio's worker_mean_poll_time).
  double mean_poll_time_ns() const { return poll_time_ewma_ns_; }

  static constexpr double target_interval_ns = 200'000;  // 200 µs between looks
  static constexpr std::uint32_t min_interval = 2;       // 1 would look first every time
  static constexpr std::uint32_t max_interval = 127;
  static constexpr std::uint32_t seed_interval = 61;     // the fixed interval of old
  static constexpr double alpha = 0.1;                   // the weight of one poll

 private:
  Clock::time_point batch_started_ = Clock::now();
  std::uint32_t polls_in_batch_ = 0;
  // Seeded so that the first interval is the seed.
  double poll_time_ewma_ns_ = target_interval_ns / seed_interval;
};

}  // namespace rt::detail
