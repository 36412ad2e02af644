// Chapter 05's experiment: what a ring per worker buys over one global
// queue, on the workloads that spawn and wake from inside the runtime.
//
//   build/experiments/05-local-queues [--rounds N] [--tasks N]
//   build/experiments/05-local-queues-on-04      the same on chapter 04's runtime
//
// Three of Tokio's scheduler benchmarks (benches/rt_multi_threaded.rs), same
// shapes and counts, on multi-thread runtimes of 1 and 2 workers:
//   spawn_many_local        inside a task: 10,000 empty tasks spawned, an
//                           atomic countdown signals the end;
//   spawn_many_remote_idle  10,000 spawns from a thread outside the runtime,
//                           then every handle awaited;
//   yield_many              200 tasks, each yield_now 1,000 times.
// Beside the median time: how often a thread waited for the global queue's
// mutex, and (chapter 05 on) how many tasks went to a worker's own ring and
// how often a ring overflowed. Compare ratios measured in one run, never
// absolute times from different runs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fmt/core.h>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"
#include "workloads.hpp"

#if __has_include("rt/scheduler/multi_thread/queue.hpp")
#define HAS_LOCAL_QUEUES 1
#endif

namespace {

using Clock = std::chrono::steady_clock;

// Spawns from inside a task: on a worker, where chapter 05 uses its ring.
rt::Task<> spawn_many_local(int tasks) {
  co_await rt::spawn([tasks]() -> rt::Task<> { co_await experiment::spawn_then_wait(tasks); });
}

using experiment::spawn_many_remote_idle;
using experiment::yield_many;

struct Counts {
  double ms = 0;
  double lock_waits = 0;
  double local = 0;
  double overflows = 0;
};

Counts totals(const rt::Runtime& runtime) {
  Counts c;
  rt::RuntimeMetrics m = runtime.metrics();
  c.lock_waits = static_cast<double>(m.global_queue_lock_waits());
#ifdef HAS_LOCAL_QUEUES
  for (std::size_t w = 0; w < m.num_workers(); ++w) {
    c.local += static_cast<double>(m.worker_local_schedule_count(w));
    c.overflows += static_cast<double>(m.worker_overflow_count(w));
  }
#endif
  return c;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

Counts measure(std::size_t workers, int rounds, const std::function<void(rt::Runtime&)>& workload) {
  std::vector<double> ms, waits, local, overflows;
  for (int round = 0; round <= rounds; ++round) {  // round 0 warms up
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
    Counts before = totals(runtime);
    auto start = Clock::now();
    workload(runtime);
    double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    Counts after = totals(runtime);
    if (round == 0) continue;
    ms.push_back(elapsed);
    waits.push_back(after.lock_waits - before.lock_waits);
    local.push_back(after.local - before.local);
    overflows.push_back(after.overflows - before.overflows);
  }
  return {median(ms), median(waits), median(local), median(overflows)};
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 05: a ring per worker against one global queue"};
  int rounds = 5;
  int tasks = 10000;
  cli.positive("--rounds", rounds, "measured rounds per cell (median reported)");
  cli.positive("--tasks", tasks, "tasks for the two spawn workloads");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  struct Workload {
    std::string name;
    std::function<void(rt::Runtime&)> run;
  };
  std::vector<Workload> workloads = {
      {"spawn_many_local", [tasks](rt::Runtime& runtime) { runtime.block_on(spawn_many_local(tasks)); }},
      {"spawn_many_remote_idle", [tasks](rt::Runtime& runtime) { spawn_many_remote_idle(runtime, tasks); }},
      {"yield_many", [](rt::Runtime& runtime) { runtime.block_on(yield_many(200, 1000)); }},
  };

  fmt::print("runtime: {}; median of {} rounds per cell\n", EXPERIMENT_RUNTIME, rounds);
  fmt::print("waits: a thread found the global queue's mutex taken; local: tasks queued in\n"
             "a worker's own ring; overflows: a full ring sent half of itself to the global queue\n\n");
  fmt::print("{:<24} {:>8} {:>10} {:>10} {:>10} {:>10}\n", "workload", "workers", "ms", "waits",
             "local", "overflows");
  for (const Workload& workload : workloads) {
    for (std::size_t workers : {1, 2}) {
      Counts c = measure(workers, rounds, workload.run);
      fmt::print("{:<24} {:>8} {:>10.2f} {:>10.0f} {:>10.0f} {:>10.0f}\n", workload.name, workers, c.ms,
                 c.lock_waits, c.local, c.overflows);
    }
  }
  return 0;
}
