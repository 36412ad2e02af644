// Chapter 11's experiment (E8): what a call that blocks does to the other
// tasks of a runtime, made inline in a task, through rt::spawn_blocking and
// through rt::block_in_place.
//
//   build/experiments/11-blocking [--only all|multi|current]
//                                 [--job-ms MS] [--jobs N] [--beat-ms MS]
//                                 [--workers N]
//
// On a multi-thread runtime with 2 workers and enable_all, a heartbeat task
// sleeps 10 ms in a loop (rt::time::sleep) and records the time of each
// beat. Meanwhile two jobs each make a 300 ms synchronous call
// (std::this_thread::sleep_for: the call that blocks, which the experiment
// measures; it synchronises nothing): inline in a task, through
// rt::spawn_blocking, through rt::block_in_place. For each case: the time
// from spawning the jobs until both are done, and the heartbeat's worst gap
// while they ran. Then on a current-thread runtime: one job inline, the
// jobs through spawn_blocking, and block_in_place, which throws.
//
// Each case has a runtime of its own, built afresh: the blocking pool has
// no thread yet, so spawn_blocking and block_in_place pay for starting
// theirs, as in Tokio's run.
//
// Tokio's published figures: inline, jobs 303 ms, worst gap 303 ms;
// spawn_blocking 310 ms, 13 ms; block_in_place 310 ms, 13 ms. On a
// current-thread runtime, one inline job gives a 302 ms gap, spawn_blocking
// 13 ms, and block_in_place panics with "can call blocking only when
// running on the multi-threaded runtime".
#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;
using namespace std::chrono_literals;

double ms(steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct Options {
  milliseconds job{300};
  std::size_t jobs = 2;
  milliseconds beat{10};
  std::size_t workers = 2;
};

// The synchronous call the experiment measures: it holds its thread for
// `d`, as a read from a slow disk or a call into a blocking library would.
void blocking_call(milliseconds d) { std::this_thread::sleep_for(d); }

// Sleeps `period` in a loop until `stop`, and returns when each beat came.
// Awaited at the end, so the vector reaches the caller with the join.
rt::Task<std::vector<steady_clock::time_point>> heartbeat(const std::atomic<bool>& stop, milliseconds period) {
  std::vector<steady_clock::time_point> beats{steady_clock::now()};
  while (!stop.load(std::memory_order_relaxed)) {
    co_await rt::time::sleep(period);
    beats.push_back(steady_clock::now());
  }
  co_return beats;
}

rt::Task<> inline_job(milliseconds d) {
  blocking_call(d);  // on the worker's thread, with the worker's queues
  co_return;
}

rt::Task<> in_place_job(milliseconds d) {
  rt::block_in_place([d] { blocking_call(d); });
  co_return;
}

// On a current-thread runtime: block_in_place's error, if it throws one.
rt::Task<std::string> try_in_place(milliseconds d, bool& ran) {
  try {
    rt::block_in_place([d, &ran] {
      ran = true;
      blocking_call(d);
    });
  } catch (const std::logic_error& error) {
    co_return error.what();
  }
  co_return "(no error)";
}

enum class Way { inline_task, spawn_blocking, block_in_place };

struct Result {
  double jobs_ms = 0;        // from spawning the jobs until the last is done
  double worst_gap_ms = 0;   // the heartbeat's, over the intervals that overlap the jobs
  double normal_gap_ms = 0;  // the heartbeat's worst before the jobs
  std::size_t pool_threads = 0;  // RuntimeMetrics::num_blocking_threads afterwards
  std::optional<std::string> error;
  bool ran = true;
};

// The worst gap between two beats among the intervals that end after
// `from` and start before `to`.
double worst_gap(const std::vector<steady_clock::time_point>& beats, steady_clock::time_point from,
                 steady_clock::time_point to) {
  steady_clock::duration worst{};
  for (std::size_t i = 1; i < beats.size(); ++i) {
    if (beats[i] > from && beats[i - 1] < to) worst = std::max(worst, beats[i] - beats[i - 1]);
  }
  return ms(worst);
}

rt::Task<Result> run_case(Way way, std::size_t jobs, Options options) {
  std::atomic<bool> stop{false};
  rt::JoinHandle<std::vector<steady_clock::time_point>> beating = rt::spawn(heartbeat(stop, options.beat));
  // The heartbeat's normal gap first.
  co_await rt::time::sleep(10 * options.beat);
  Result result;
  steady_clock::time_point start = steady_clock::now();
  std::vector<rt::JoinHandle<void>> handles;
  for (std::size_t i = 0; i < jobs; ++i) {
    milliseconds d = options.job;
    switch (way) {
      case Way::inline_task:
        handles.push_back(rt::spawn(inline_job(d)));
        break;
      case Way::spawn_blocking:
        handles.push_back(rt::spawn_blocking([d] { blocking_call(d); }));
        break;
      case Way::block_in_place:
        handles.push_back(rt::spawn(in_place_job(d)));
        break;
    }
  }
  for (rt::JoinHandle<void>& handle : handles) co_await handle;
  steady_clock::time_point end = steady_clock::now();
  result.jobs_ms = ms(end - start);
  // The beat that ends the longest gap may come after the jobs: wait for it.
  co_await rt::time::sleep(3 * options.beat);
  stop = true;
  std::vector<steady_clock::time_point> beats = co_await beating;
  result.worst_gap_ms = worst_gap(beats, start, end);
  result.normal_gap_ms = worst_gap(beats, beats.front(), start - options.beat);
  co_return result;
}

// The current-thread runtime's block_in_place: no jobs run, just the error.
rt::Task<Result> run_refused(Options options) {
  Result result;
  bool ran = false;
  steady_clock::time_point start = steady_clock::now();
  result.error = co_await rt::spawn(try_in_place(options.job, ran));
  result.jobs_ms = ms(steady_clock::now() - start);
  result.ran = ran;
  co_return result;
}

rt::Runtime multi_thread(const Options& options) {
  return rt::Builder::new_multi_thread().worker_threads(options.workers).enable_all().build();
}

rt::Runtime current_thread() { return rt::Builder::new_current_thread().enable_all().build(); }

struct Row {
  const char* name;
  Result result;
  const char* tokio_jobs;
  const char* tokio_gap;
};

void print_header() {
  fmt::print("  {:<28} {:>8} {:>10} {:>11} {:>6}   {:>13} {:>13}\n", "case", "jobs ms", "worst gap", "normal gap",
             "pool", "Tokio jobs ms", "Tokio gap ms");
}

void print_row(const Row& row) {
  if (row.result.error) {
    fmt::print("  {:<28} {}\n", row.name, fmt::format("threw std::logic_error{}:", row.result.ran ? "" : " (the function never ran)"));
    fmt::print("  {:<28}   course: \"{}\"\n", "", *row.result.error);
    fmt::print("  {:<28}   Tokio:  \"can call blocking only when running on the multi-threaded runtime\"\n", "");
    return;
  }
  fmt::print("  {:<28} {:>8.1f} {:>10.1f} {:>11.1f} {:>6}   {:>13} {:>13}\n", row.name, row.result.jobs_ms,
             row.result.worst_gap_ms, row.result.normal_gap_ms, row.result.pool_threads, row.tokio_jobs,
             row.tokio_gap);
}

Result measure(rt::Runtime runtime, Way way, std::size_t jobs, const Options& options) {
  Result result = runtime.block_on(run_case(way, jobs, options));
  result.pool_threads = runtime.metrics().num_blocking_threads();
  return result;
}

void on_multi_thread(const Options& options) {
  fmt::print("A multi-thread runtime with {} workers and enable_all; {} jobs of {} ms each:\n\n", options.workers,
             options.jobs, options.job.count());
  print_header();
  print_row({"inline in a task", measure(multi_thread(options), Way::inline_task, options.jobs, options), "303", "303"});
  std::fflush(stdout);
  print_row({"spawn_blocking", measure(multi_thread(options), Way::spawn_blocking, options.jobs, options), "310", "13"});
  std::fflush(stdout);
  print_row({"block_in_place", measure(multi_thread(options), Way::block_in_place, options.jobs, options), "310", "13"});
  fmt::print("\n");
}

void on_current_thread(const Options& options) {
  fmt::print("A current-thread runtime with enable_all: one job inline, {} through spawn_blocking:\n\n", options.jobs);
  print_header();
  print_row({"inline in a task (one job)", measure(current_thread(), Way::inline_task, 1, options), "-", "302"});
  std::fflush(stdout);
  print_row({"spawn_blocking", measure(current_thread(), Way::spawn_blocking, options.jobs, options), "-", "13"});
  std::fflush(stdout);
  {
    rt::Runtime runtime = current_thread();
    print_row({"block_in_place", runtime.block_on(run_refused(options)), "", ""});
  }
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 11: a blocking call inline, through spawn_blocking and through block_in_place (E8)"};
  std::string only = "all";
  Options options;
  int job_ms = 300;
  int beat_ms = 10;
  cli.text("--only", only, "one runtime: multi (multi-thread) or current (current-thread)", {"all", "multi", "current"});
  cli.positive("--job-ms", job_ms, "how long each job's synchronous call blocks, in ms");
  cli.positive("--jobs", options.jobs, "jobs per case (the current-thread inline case runs one)");
  cli.positive("--beat-ms", beat_ms, "the heartbeat's sleep, in ms");
  cli.positive("--workers", options.workers, "workers of the multi-thread runtime");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;
  options.job = milliseconds(job_ms);
  options.beat = milliseconds(beat_ms);

  fmt::print("runtime: {}\n\n", EXPERIMENT_RUNTIME);
  fmt::print(
      "E8: a heartbeat task sleeps {} ms in a loop; its worst gap between two beats while the jobs\n"
      "ran, beside its worst before them (normal gap); pool: the blocking threads afterwards, worker\n"
      "loops not counted (RuntimeMetrics::num_blocking_threads).\n\n",
      options.beat.count());
  if (only == "all" || only == "multi") on_multi_thread(options);
  if (only == "all" || only == "current") on_current_thread(options);
  fmt::print(
      "The rule: a task that blocks holds its worker's thread, and every task queued behind it waits;\n"
      "spawn_blocking moves the call to a thread of the pool, block_in_place moves the worker's queues\n"
      "to another thread. A current-thread runtime has no queues to move: only spawn_blocking helps.\n");
  return 0;
}
