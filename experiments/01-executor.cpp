// Chapter 01's experiment: what a spawn and a poll cost, and what a task
// that never yields does to every other task.
//
//   build/experiments/01-executor [--tasks N] [--yields N] [--spin-ms N]
//
// Figures are per operation, from one run; compare them between chapters
// by running each chapter's build of this program on the same machine.
#include <chrono>
#include <fmt/core.h>
#include <optional>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

rt::Task<> nothing() { co_return; }

// Spawns `count` empty tasks, then runs them all by joining them.
rt::Task<> spawn_many(int count, double& spawn_ns, double& run_ns) {
  std::vector<rt::JoinHandle<void>> handles;
  handles.reserve(count);
  auto start = Clock::now();
  for (int i = 0; i < count; ++i) handles.push_back(rt::spawn(nothing()));
  spawn_ns = nanoseconds_since(start) / count;
  start = Clock::now();
  for (auto& handle : handles) co_await handle;
  run_ns = nanoseconds_since(start) / count;
}

rt::Task<> yield_many(int count) {
  for (int i = 0; i < count; ++i) co_await rt::yield_now();
}

// Busy for `spin` without a single co_await, or yielding every millisecond.
rt::Task<> spin(std::chrono::milliseconds spin, bool yield_every_ms) {
  auto end = Clock::now() + spin;
  auto next_yield = Clock::now() + std::chrono::milliseconds(1);
  while (Clock::now() < end) {
    if (yield_every_ms && Clock::now() >= next_yield) {
      co_await rt::yield_now();
      next_yield = Clock::now() + std::chrono::milliseconds(1);
    }
  }
}

rt::Task<> note_first_run(Clock::time_point spawned, double& waited_ms) {
  waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - spawned).count();
  co_return;
}

// How long task B waits for its first poll when spawned just after a
// spinning task A.
rt::Task<double> wait_behind(std::chrono::milliseconds spin_for, bool yield_every_ms) {
  double waited_ms = 0;
  auto a = rt::spawn(spin(spin_for, yield_every_ms));
  auto b = rt::spawn(note_first_run(Clock::now(), waited_ms));
  co_await rt::yield_now();  // let A start first: B is queued behind it
  co_await a;
  co_await b;
  co_return waited_ms;
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 01: the cost of a spawn and of a poll, and the price of never yielding"};
  int tasks = 200'000;
  int yields = 1'000'000;
  int spin_ms = 100;
  cli.positive("--tasks", tasks, "empty tasks to spawn");
  cli.positive("--yields", yields, "yield_now calls in one task");
  cli.positive("--spin-ms", spin_ms, "how long the busy task runs");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  rt::Runtime runtime;
  double spawn_ns = 0, run_ns = 0;
  runtime.block_on(spawn_many(tasks, spawn_ns, run_ns));

  auto start = Clock::now();
  runtime.block_on([yields]() -> rt::Task<> { co_await rt::spawn(yield_many(yields)); }());
  double poll_ns = nanoseconds_since(start) / yields;

  auto spin_for = std::chrono::milliseconds(spin_ms);
  double starved_ms = runtime.block_on(wait_behind(spin_for, false));
  double shared_ms = runtime.block_on(wait_behind(spin_for, true));

  fmt::print("spawn:  {:>9} empty tasks      {:>8.1f} ns per spawn\n", tasks, spawn_ns);
  fmt::print("        then run and joined    {:>8.1f} ns per task\n", run_ns);
  fmt::print("poll:   {:>9} yields in a task {:>8.1f} ns per poll (wake, queue, poll)\n", yields,
             poll_ns);
  fmt::print("wait:   a task spawned behind a {} ms busy task waited\n", spin_ms);
  fmt::print("        {:>8.2f} ms when the busy task never yields\n", starved_ms);
  fmt::print("        {:>8.2f} ms when it yields every 1 ms\n", shared_ms);
  return 0;
}
