//@ file threads..
// rt::Builder: configures and builds a Runtime. Mirrors
// tokio::runtime::Builder.
//
//   rt::Runtime runtime = rt::Builder::new_multi_thread()
//                             .worker_threads(4)
//                             .thread_name("my-worker")
//                             .build();
//
// A multi-thread runtime has as many workers as the machine has hardware
// threads, unless the environment variable RT_WORKER_THREADS says how
// many (Tokio's TOKIO_WORKER_THREADS), unless worker_threads(n) does.
//
// Each chapter's options are a section of the class and a file of their
// own: builder.cpp has those of chapter 04.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
//@ chapters reactor..

namespace rt::detail {
struct DriverConfig;
}  // namespace rt::detail
//@ end
//@ chapters blocking..

#include <chrono>
namespace rt::detail {
struct BlockingConfig;
class SchedulerHandle;
}  // namespace rt::detail
//@ end
//@ chapters capstone..

#include "rt/runtime/metrics/histogram.hpp"
namespace rt::detail {
struct InstrumentsConfig;
}  // namespace rt::detail
//@ end

namespace rt {

class Runtime;

class Builder {
 public:
  static Builder new_current_thread() { return Builder(Kind::CurrentThread); }
  static Builder new_multi_thread() { return Builder(Kind::MultiThread); }

  // How many worker threads (multi-thread only); at least 1.
  Builder& worker_threads(std::size_t count);
  // The name of the worker threads (Linux keeps 15 characters).
  Builder& thread_name(std::string name);
//@ chapters threads
  // How many tasks a worker runs between two looks at the global queue.
  // Kept for chapter 05, where workers get local queues; at least 1.
//@ else
  // How many tasks a worker runs between two looks at the global queue;
  // at least 1. Unset, each worker tunes it to look about every 200 µs.
//@ end
  Builder& global_queue_interval(std::uint32_t ticks);
  // How many tasks a worker runs between two polls of the I/O and timer
  // drivers (chapters 09 and 10), and the current-thread runtime between
  // two looks at block_on's future; at least 1.
  Builder& event_interval(std::uint32_t ticks);

  Runtime build();

  // The worker count a multi-thread runtime gets by default: the
  // environment variable RT_WORKER_THREADS if it is set (it must be a
  // positive integer), else the available parallelism.
  static std::size_t default_worker_threads();

 private:
  enum class Kind { CurrentThread, MultiThread };
  explicit Builder(Kind kind) : kind_(kind) {}

  Kind kind_;
  std::optional<std::size_t> worker_threads_;
  std::string thread_name_ = "rt-worker";
  std::optional<std::uint32_t> global_queue_interval_;
  std::uint32_t event_interval_ = 61;
//@ chapters lifo-slot..

  // The LIFO slot (builder.cpp).
 public:
  // Turns the LIFO slot off: every task woken on a worker goes to the back
  // of its ring (Tokio's, unstable there, is a workaround for tasks that
  // block their thread while the slot holds a task they woke).
  Builder& disable_lifo_slot();

 private:
  bool disable_lifo_slot_ = false;
//@ end
//@ chapters reactor..

  // The drivers (builder_drivers.cpp).
 public:
  // Turns the I/O driver on: without it, creating a socket throws. Tokio's
  // enable_io; enable_all turns on every driver the runtime has.
  Builder& enable_io();
  Builder& enable_all();
  // At most how many events one turn of the I/O driver takes (1024).
  Builder& max_io_events_per_tick(std::size_t events);

 private:
  detail::DriverConfig driver_config(bool current_thread) const;

  bool enable_io_ = false;
  std::size_t max_io_events_per_tick_ = 1024;
//@ end
//@ chapters timers..

 public:
  // Turns the timers on: without it, creating a Sleep throws. Tokio's
  // enable_time.
  Builder& enable_time();
  // The clock starts paused (current-thread only): for tests, whose
  // timers then fire as soon as nothing else is left to do.
  Builder& start_paused(bool paused);

 private:
  bool enable_time_ = false;
  bool start_paused_ = false;
//@ end
//@ chapters blocking..

  // The blocking pool (builder_blocking.cpp).
 public:
  // At most how many threads the blocking pool runs at once besides the
  // workers' loops (512); a job beyond waits for one to free up.
  Builder& max_blocking_threads(std::size_t count);
  // How long an idle blocking thread waits for a job before it leaves (10 s).
  Builder& thread_keep_alive(std::chrono::nanoseconds duration);

 private:
  detail::BlockingConfig blocking_config(std::size_t workers) const;
  // What a scheduler of either flavour gets before it starts.
  void set_up(detail::SchedulerHandle& scheduler, bool current_thread, std::size_t workers) const;

  std::size_t max_blocking_threads_ = 512;
  std::chrono::nanoseconds thread_keep_alive_ = std::chrono::seconds(10);
//@ end
//@ chapters capstone..

  // Metrics and the trace (builder_metrics.cpp).
 public:
  // Keeps a histogram of poll times per worker (Tokio's
  // enable_metrics_poll_time_histogram): by default Tokio's 10 linear
  // buckets of 100 µs, or the configuration given.
  Builder& enable_metrics_poll_time_histogram();
  Builder& metrics_poll_time_histogram_configuration(HistogramConfig config);
  // Records every poll, steal and park of every worker, and writes them
  // to `path` when the runtime shuts down, in the Chrome trace-event
  // format (scripts/trace draws it). Without it, the environment variable
  // RT_TRACE names the file the same way.
  Builder& trace_path(std::string path);

 private:
  detail::InstrumentsConfig instruments_config(bool current_thread) const;

  bool poll_time_histogram_ = false;
  HistogramConfig histogram_config_;
  std::string trace_path_;
//@ end
};

}  // namespace rt
