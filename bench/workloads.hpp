// The workloads every benchmark program runs, and their shapes: the names,
// the two flavours, and how much work one iteration does. Both programs (the
// course's runtimes and Asio) take their counts from here, so that a figure
// from one can be set beside the other. The shapes are those of Tokio's
// benches/rt_multi_threaded.rs and benches/rt_current_thread.rs.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bench {

enum class Flavour { current_thread, multi_thread };

inline std::string_view name_of(Flavour flavour) {
  return flavour == Flavour::current_thread ? "current_thread" : "multi_thread";
}

inline constexpr std::array<std::string_view, 7> workload_names = {
    "spawn_many_local",   "spawn_many_remote_idle", "spawn_many_remote_busy", "yield_many",
    "ping_pong",          "ping_pong_upstream",     "chained_spawn",
};

// Tokio's current-thread benchmarks spawn 1,000 tasks per iteration, its
// multi-thread ones 10,000.
inline long spawn_count(Flavour flavour) { return flavour == Flavour::current_thread ? 1'000 : 10'000; }
inline constexpr long yield_tasks = 200;
inline constexpr long yields_per_task = 1'000;
inline constexpr long ping_pong_round_trips = 100'000;
inline constexpr long upstream_pairs = 1'000;
inline constexpr long chain_length = 1'000;

// What one iteration of a workload counts, so that a time can be divided
// into a time per unit: "ns per task", "ns per yield", ...
struct Shape {
  std::string_view unit;
  long units;
};

inline Shape shape_of(std::string_view workload, Flavour flavour) {
  if (workload.starts_with("spawn_many")) return {"task", spawn_count(flavour)};
  if (workload == "yield_many") return {"yield", yield_tasks * yields_per_task};
  if (workload == "ping_pong") return {"round trip", ping_pong_round_trips};
  if (workload == "ping_pong_upstream") return {"pair", upstream_pairs};
  if (workload == "chained_spawn") return {"spawn", chain_length};
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
// chapter before 04, channels before chapter 03). The program exits with
// cannot_run_exit_code and the reason; the harness shows the cell as such.
class CannotRun : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int cannot_run_exit_code = 3;

}  // namespace bench
