//@ file capstone..
// Instruments: what a runtime counts and records about its own work
// beyond the counters each chapter added: the counts Tokio keeps in its
// SchedulerMetrics (runtime/metrics/scheduler.rs), and per worker the
// poll-time histogram and the trace (runtime/metrics/worker.rs, batch.rs).
//
// Timing a poll costs two clock reads, so polls are timed only when the
// builder asked for the histogram or the trace; the counts are always kept.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rt/loom.hpp"
#include "rt/runtime/metrics/histogram.hpp"
#include "rt/runtime/metrics/trace.hpp"

namespace rt::detail {

struct InstrumentsConfig {
  std::optional<HistogramConfig> poll_time_histogram;  // none: not kept
  std::string trace_path;                               // empty: no trace
  std::string runtime = "rt";                           // for the trace file: what ran
  std::string flavour;                                  // and on which flavour
};

class Instruments {
 public:
  using Clock = TraceBuffer::Clock;

  Instruments(InstrumentsConfig config, std::size_t workers);

  // Are polls timed?
  bool times_polls() const { return times_polls_; }

  // Worker `worker`'s poll of `task` took from `start` to `end`.
  void record_poll(std::size_t worker, const void* task, Clock::time_point start, Clock::time_point end);
  // Worker `worker` slept from `start` to `end`.
  void record_park(std::size_t worker, Clock::time_point start, Clock::time_point end) {
    if (tracing()) workers_[worker].trace.park(start, end - start);
  }
  // Worker `worker` stole `tasks` tasks (none: it found work elsewhere).
  void record_steal(std::size_t worker, std::uint64_t tasks) {
    if (tasks && tracing()) workers_[worker].trace.steal(Clock::now(), tasks);
  }

  // Counts any thread may add to (so fetch_add, not a Counter).
  void count_forced_yield() { forced_yields_.fetch_add(1, std::memory_order_relaxed); }  // relaxed: a statistic
  void count_remote_schedule() { remote_schedules_.fetch_add(1, std::memory_order_relaxed); }  // likewise
  std::uint64_t forced_yields() const { return forced_yields_.load(std::memory_order_relaxed); }
  std::uint64_t remote_schedules() const { return remote_schedules_.load(std::memory_order_relaxed); }

  // Worker `worker`'s histogram, or nullptr when not kept.
  const Histogram* histogram(std::size_t worker) const { return workers_[worker].histogram.get(); }
  std::size_t num_workers() const { return workers_.size(); }

  // After every worker stopped: writes the trace, if one was asked for.
  void finish();

 private:
  struct PerWorker {
    std::unique_ptr<Histogram> histogram;
    TraceBuffer trace;
  };

  bool tracing() const { return !config_.trace_path.empty(); }

  InstrumentsConfig config_;
  bool times_polls_;
  Clock::time_point epoch_ = Clock::now();  // the trace's zero
  std::vector<PerWorker> workers_;
  loom::atomic<std::uint64_t> forced_yields_{0};
  loom::atomic<std::uint64_t> remote_schedules_{0};
};

// The budget refused an operation on this thread: counted in the
// current runtime's instruments, if there is one (Tokio's
// budget_forced_yield_count).
void count_forced_yield();

//@ listing poll_timer
// Times one poll, when the runtime times polls: made before the poll,
// destroyed after it, even when the poll throws.
class PollTimer {
 public:
  PollTimer(Instruments& instruments, std::size_t worker, const void* task)
      : instruments_(instruments.times_polls() ? &instruments : nullptr), worker_(worker), task_(task) {
    if (instruments_) start_ = Instruments::Clock::now();
  }
  ~PollTimer() {
    if (instruments_) instruments_->record_poll(worker_, task_, start_, Instruments::Clock::now());
  }
  PollTimer(const PollTimer&) = delete;
  PollTimer& operator=(const PollTimer&) = delete;

 private:
  Instruments* instruments_;
  std::size_t worker_;
  const void* task_;
  Instruments::Clock::time_point start_;
};
//@ listing-end poll_timer

// Times one park, when the runtime traces.
class ParkTimer {
 public:
  ParkTimer(Instruments& instruments, std::size_t worker)
      : instruments_(instruments.times_polls() ? &instruments : nullptr), worker_(worker) {
    if (instruments_) start_ = Instruments::Clock::now();
  }
  ~ParkTimer() {
    if (instruments_) instruments_->record_park(worker_, start_, Instruments::Clock::now());
  }
  ParkTimer(const ParkTimer&) = delete;
  ParkTimer& operator=(const ParkTimer&) = delete;

 private:
  Instruments* instruments_;
  std::size_t worker_;
  Instruments::Clock::time_point start_;
};

}  // namespace rt::detail
