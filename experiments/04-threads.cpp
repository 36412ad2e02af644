// Chapter 04's experiment: how many workers a runtime gets (E1), and what
// one global queue costs once several threads share it.
//
//   build/experiments/04-threads [--rounds N] [--tasks N]
//
// E1 prints the worker count of a default multi-thread runtime, then again
// with RT_WORKER_THREADS=3 (Tokio: the available parallelism, then 3).
//
// Then three of Tokio's scheduler benchmarks (benches/rt_multi_threaded.rs),
// same shapes and counts, on a current-thread runtime and on multi-thread
// runtimes of 1 and 2 workers:
//   spawn_many_local        10,000 empty tasks spawned from inside block_on,
//                           an atomic countdown signals the end;
//   spawn_many_remote_idle  10,000 spawns from a thread outside the runtime,
//                           then every handle awaited;
//   yield_many              200 tasks, each yield_now 1,000 times.
// Every spawn, wake and yield goes through the one mutex of the injection
// queue: the last column counts how often a thread found it taken and had
// to wait (RuntimeMetrics::global_queue_lock_waits). Compare ratios measured
// in one run, never absolute times from different runs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fmt/core.h>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"
#include "workloads.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---------------------------------------------------------------------- E1

std::size_t workers_of_a_default_runtime() {
  return rt::Builder::new_multi_thread().build().metrics().num_workers();
}

void e1() {
  std::optional<std::string> saved;
  if (const char* value = std::getenv("RT_WORKER_THREADS")) saved = value;
  unsetenv("RT_WORKER_THREADS");
  std::size_t by_default = workers_of_a_default_runtime();
  setenv("RT_WORKER_THREADS", "3", 1);
  std::size_t overridden = workers_of_a_default_runtime();
  if (saved) setenv("RT_WORKER_THREADS", saved->c_str(), 1);
  else unsetenv("RT_WORKER_THREADS");
  fmt::print("E1: a default multi-thread runtime has {} workers (hardware threads: {});\n",
             by_default, std::thread::hardware_concurrency());
  fmt::print("    with RT_WORKER_THREADS=3 it has {}\n\n", overridden);
}

// Spawns from block_on's future, as Tokio's spawn_many_local does.
rt::Task<> spawn_many_local(int tasks) { return experiment::spawn_then_wait(tasks); }

using experiment::spawn_many_remote_idle;
using experiment::yield_many;

struct Flavour {
  std::string name;
  std::function<rt::Runtime()> build;
};

struct Measure {
  double median_ms;
  double lock_waits;  // per round, median
};

Measure measure(const Flavour& flavour, int rounds, const std::function<void(rt::Runtime&)>& workload) {
  std::vector<double> times;
  std::vector<double> waits;
  for (int round = 0; round <= rounds; ++round) {  // round 0 warms up
    rt::Runtime runtime = flavour.build();
    std::uint64_t waits_before = runtime.metrics().global_queue_lock_waits();
    auto start = Clock::now();
    workload(runtime);
    double ms = ms_since(start);
    if (round == 0) continue;
    times.push_back(ms);
    waits.push_back(static_cast<double>(runtime.metrics().global_queue_lock_waits() - waits_before));
  }
  std::sort(times.begin(), times.end());
  std::sort(waits.begin(), waits.end());
  return {times[times.size() / 2], waits[waits.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 04: worker counts, and the cost of one global queue"};
  int rounds = 5;
  int tasks = 10000;
  cli.positive("--rounds", rounds, "measured rounds per cell (median reported)");
  cli.positive("--tasks", tasks, "tasks for the two spawn workloads");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  e1();

  std::vector<Flavour> flavours = {
      {"current-thread", [] { return rt::Builder::new_current_thread().build(); }},
      {"multi-thread, 1 worker", [] { return rt::Builder::new_multi_thread().worker_threads(1).build(); }},
      {"multi-thread, 2 workers", [] { return rt::Builder::new_multi_thread().worker_threads(2).build(); }},
  };
  struct Workload {
    std::string name;
    std::function<void(rt::Runtime&)> run;
  };
  std::vector<Workload> workloads = {
      {"spawn_many_local", [tasks](rt::Runtime& runtime) { runtime.block_on(spawn_many_local(tasks)); }},
      {"spawn_many_remote_idle", [tasks](rt::Runtime& runtime) { spawn_many_remote_idle(runtime, tasks); }},
      {"yield_many", [](rt::Runtime& runtime) { runtime.block_on(yield_many(200, 1000)); }},
  };

  fmt::print("median of {} rounds, ms (lock waits: how often a thread waited for the\n"
             "global queue's mutex, per round)\n\n", rounds);
  fmt::print("{:<24}", "workload");
  for (const Flavour& flavour : flavours) fmt::print("  {:>25}", flavour.name);
  fmt::print("\n");
  for (const Workload& workload : workloads) {
    fmt::print("{:<24}", workload.name);
    for (const Flavour& flavour : flavours) {
      Measure m = measure(flavour, rounds, workload.run);
      fmt::print("  {:>9.2f} ms {:>7.0f} waits", m.median_ms, m.lock_waits);
    }
    fmt::print("\n");
  }
  return 0;
}
