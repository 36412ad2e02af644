// Chapter 06's experiment, E3: one task on a 4-worker runtime spawns 32
// CPU-bound children (a 5 ms spin each); which worker ran how many, and
// how many steals it took.
//
//   build/experiments/06-stealing [--runs N] [--workers N] [--children N] [--spin-ms N]
//
// All 32 children are spawned on the parent's worker, into its ring: every
// child that another worker runs got there by a steal (or, after an
// overflow, through the global queue). With 4 workers on 14 cores Tokio
// spreads them 8/8/8/8; on a machine with fewer cores than workers, the
// operating system decides which workers get to run, and the spread shows it.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fmt/core.h>
#include <fmt/ranges.h>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Busy for `duration` of wall time: CPU-bound, never yielding.
void spin_for(std::chrono::milliseconds duration) {
  auto until = Clock::now() + duration;
  while (Clock::now() < until) {
  }
}

struct Run {
  std::vector<int> tasks_per_worker;  // children run by each worker thread
  std::vector<std::uint64_t> steals;  // tasks each worker stole
  std::vector<std::uint64_t> steal_operations;
  double ms = 0;
};

Run run_once(std::size_t workers, int children, std::chrono::milliseconds spin) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
  std::mutex mutex;
  std::vector<std::thread::id> ran_on;
  auto start = Clock::now();
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      std::vector<rt::JoinHandle<void>> handles;
      for (int i = 0; i < children; ++i) {
        handles.push_back(rt::spawn([&]() -> rt::Task<> {
          spin_for(spin);
          std::lock_guard lock(mutex);
          ran_on.push_back(std::this_thread::get_id());
          co_return;
        }));
      }
      for (auto& handle : handles) co_await handle;
    });
  }());
  Run run;
  run.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  std::vector<std::thread::id> threads;
  for (std::thread::id id : ran_on) {
    if (std::find(threads.begin(), threads.end(), id) == threads.end()) threads.push_back(id);
  }
  for (std::thread::id id : threads) {
    run.tasks_per_worker.push_back(static_cast<int>(std::count(ran_on.begin(), ran_on.end(), id)));
  }
  run.tasks_per_worker.resize(workers, 0);  // workers that ran none
  std::sort(run.tasks_per_worker.rbegin(), run.tasks_per_worker.rend());
  for (std::size_t w = 0; w < workers; ++w) {
    run.steals.push_back(runtime.metrics().worker_steal_count(w));
    run.steal_operations.push_back(runtime.metrics().worker_steal_operations(w));
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 06, E3: 32 CPU-bound children spread over 4 workers by stealing"};
  int runs = 5;
  std::size_t workers = 4;
  int children = 32;
  int spin_ms = 5;
  cli.positive("--runs", runs, "runs to show");
  cli.positive("--workers", workers, "worker threads");
  cli.positive("--children", children, "children spawned by the one task");
  cli.positive("--spin-ms", spin_ms, "how long each child spins");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  fmt::print("runtime: {}; {} workers on {} hardware threads; {} children of {} ms each\n",
             EXPERIMENT_RUNTIME, workers, std::thread::hardware_concurrency(), children, spin_ms);
  fmt::print("ideal wall time: {} ms with {} cores free\n\n",
             (children + static_cast<int>(workers) - 1) / static_cast<int>(workers) * spin_ms, workers);
  fmt::print("{:<5} {:<22} {:<22} {:<22} {:>9}\n", "run", "children per worker", "tasks stolen",
             "steal operations", "wall ms");
  for (int r = 1; r <= runs; ++r) {
    Run run = run_once(workers, children, std::chrono::milliseconds(spin_ms));
    fmt::print("{:<5} {:<22} {:<22} {:<22} {:>9.1f}\n", r, fmt::format("{}", fmt::join(run.tasks_per_worker, "/")),
               fmt::format("{}", fmt::join(run.steals, "/")),
               fmt::format("{}", fmt::join(run.steal_operations, "/")), run.ms);
  }
  return 0;
}
