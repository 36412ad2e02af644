// The workloads every benchmark program runs, and their shapes: the names,
// the two flavours, and how much work one iteration does. Both programs (the
// course's runtimes and Asio) take their counts from here, so that a figure
// from one can be set beside the other. The scheduler workloads' shapes are
// those of Tokio's benches/rt_multi_threaded.rs and
// benches/rt_current_thread.rs; echo_* is a TCP echo server and its
// clients on 127.0.0.1, as in Tokio's and Asio's echo examples; timers is
// many overlapping sleeps, timeout_ready is Tokio's
// benches/time_timeout.rs (a timeout around a task that is ready at once),
// and spawn_blocking is Tokio's benches/spawn_blocking.rs (batches of
// empty functions on the blocking pool, awaited from tasks).
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bench {

enum class Flavour { current_thread, multi_thread };

inline std::string_view name_of(Flavour flavour) {
  return flavour == Flavour::current_thread ? "current_thread" : "multi_thread";
}

inline constexpr std::array<std::string_view, 13> workload_names = {
    "spawn_many_local",   "spawn_many_remote_idle", "spawn_many_remote_busy", "yield_many",
    "ping_pong",          "ping_pong_upstream",     "chained_spawn",          "echo_1",
    "echo_10",            "echo_100",               "timers",                 "timeout_ready",
    "spawn_blocking",
};

// How big an iteration is: `full` for a timed run, `smoke` for a run that
// only asks "does it work?" (scripts/bench --smoke). Only the workloads
// that would take long shrink: the echo rows and timers.
enum class Size { full, smoke };

// Tokio's current-thread benchmarks spawn 1,000 tasks per iteration, its
// multi-thread ones 10,000.
inline long spawn_count(Flavour flavour) { return flavour == Flavour::current_thread ? 1'000 : 10'000; }
inline constexpr long yield_tasks = 200;
inline constexpr long yields_per_task = 1'000;
inline constexpr long ping_pong_round_trips = 100'000;
inline constexpr long upstream_pairs = 1'000;
inline constexpr long chain_length = 1'000;

// echo_N: N connections to an echo server, each of which writes a message
// of echo_message_bytes and reads exactly as many back, again and again.
// Every row makes the same number of round trips per iteration, shared out
// among its connections, so that an iteration takes about as long on each.
inline constexpr std::size_t echo_message_bytes = 64;
inline long echo_connections(std::string_view workload) {
  if (workload == "echo_1") return 1;
  if (workload == "echo_10") return 10;
  if (workload == "echo_100") return 100;
  throw std::invalid_argument("not an echo workload: " + std::string(workload));
}
inline long echo_round_trips(Size size) { return size == Size::full ? 20'000 : 200; }
inline long echo_round_trips_per_connection(std::string_view workload, Size size) {
  return echo_round_trips(size) / echo_connections(workload);
}

// timers: sleeps of 1 to 100 ms (sleep i lasts 1 + i % 100 ms), one per
// task, all started together: they overlap, so an iteration lasts about
// 100 ms of wall time whatever it costs, and is timed in CPU time instead
// (Timing::cpu): what registering, firing and waking a sleep costs.
inline constexpr long timer_longest_ms = 100;
inline long timer_sleeps(Size size) { return size == Size::full ? 100'000 : 1'000; }
inline long timer_sleep_ms(long i) { return 1 + i % timer_longest_ms; }

// timeout_ready: Tokio's time_timeout. Each of `tasks` tasks (one on the
// current-thread flavour, one per worker on the multi-thread one) awaits
// a 1 s timeout around a task that is ready at once, over and over: the
// timeout's cost when it never fires (Tokio's never touches the wheel).
inline constexpr long timeouts_per_iteration = 100'000;
inline long timeout_tasks(Flavour flavour, int workers) { return flavour == Flavour::current_thread ? 1 : workers; }

// spawn_blocking: Tokio's benches/spawn_blocking.rs. Each of `tasks`
// tasks (one on the current-thread flavour, one per worker on the
// multi-thread one, Tokio's concurrency levels up to the cores) runs
// batches of blocking_batch_size jobs, each an empty function that
// returns 0 run on the blocking pool: it starts the whole batch, then
// awaits every job of it, then the next batch. The unit is one job:
// started from a task, run on a pool thread, its result awaited by the
// task. An iteration is blocking_batches_per_iteration batches in all,
// shared out among the tasks (on 2 workers, Tokio's 100 batches of 16 per
// task), so that an iteration makes as many jobs on every row.
inline constexpr long blocking_batch_size = 16;
inline constexpr long blocking_batches_per_iteration = 200;
inline long blocking_tasks(Flavour flavour, int workers) { return flavour == Flavour::current_thread ? 1 : workers; }
// The batches of task t of `tasks`: the remainder goes to the first tasks.
inline long blocking_batches_of(long t, long tasks) {
  return blocking_batches_per_iteration / tasks + (t < blocking_batches_per_iteration % tasks ? 1 : 0);
}

// Keeps the compiler from folding away a value it could compute: what
// Rust's std::hint::black_box does for Tokio's empty blocking function.
template <class T>
inline T black_box(T value) {
  asm volatile("" : "+r"(value) : : "memory");
  return value;
}

// How an iteration is timed: the wall clock, or the CPU time of the whole
// process (all its threads), for a workload whose wall time is mostly
// waiting (timers).
enum class Timing { wall, cpu };

inline std::string_view name_of(Timing timing) { return timing == Timing::wall ? "wall" : "cpu"; }

// What one iteration of a workload counts, so that a time can be divided
// into a time per unit: "ns per task", "ns per yield", ...
struct Shape {
  std::string_view unit;
  long units;
  Timing timing = Timing::wall;
};

inline Shape shape_of(std::string_view workload, Flavour flavour, Size size = Size::full) {
  if (workload.starts_with("spawn_many")) return {"task", spawn_count(flavour)};
  if (workload == "yield_many") return {"yield", yield_tasks * yields_per_task};
  if (workload == "ping_pong") return {"round trip", ping_pong_round_trips};
  if (workload == "ping_pong_upstream") return {"pair", upstream_pairs};
  if (workload == "chained_spawn") return {"spawn", chain_length};
  if (workload.starts_with("echo_")) {
    return {"round trip", echo_connections(workload) * echo_round_trips_per_connection(workload, size)};
  }
  if (workload == "timers") return {"sleep", timer_sleeps(size), Timing::cpu};
  if (workload == "timeout_ready") return {"timeout", timeouts_per_iteration};
  if (workload == "spawn_blocking") return {"job", blocking_batches_per_iteration * blocking_batch_size};
  throw std::invalid_argument("unknown workload " + std::string(workload));
}

// One workload set up on one runtime. The runtime lives as long as the
// workload does, as in Tokio's benchmarks, so that an iteration measures the
// work and not the runtime's start-up.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual void iteration() = 0;
};

// Thrown when a runtime cannot run a workload (a multi-thread row on a
// chapter before 04, channels before chapter 03, sockets before 09, timers
// before 10, the blocking pool before 11). The program exits with
// cannot_run_exit_code and the reason; the harness shows the cell as such.
class CannotRun : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int cannot_run_exit_code = 3;

}  // namespace bench
