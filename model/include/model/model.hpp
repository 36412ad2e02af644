// The course's model checker: runs a test body again and again, each time
// under another schedule, until every schedule within a bound has been
// tried. One modelled thread runs at a time and switches only at the
// operations of model/sync.hpp (atomics, mutex, condition variable, thread
// spawn and join), so the checker, not the OS, decides every interleaving;
// and each atomic load may read any store the C++ memory model allows it to
// read, not only the newest. Mirrors loom (tokio-rs/loom), which Tokio's
// own concurrency tests run under; the appendix of the book explains it.
#pragma once

#include <cstdint>
#include <functional>
#include "model/where.hpp"
#include <string>

namespace model {

// How to explore.
struct Options {
  enum class Mode {
    exhaustive,  // every schedule with at most preemption_bound preemptions
    random,      // pct_runs schedules of PCT: random priorities, changed at pct_depth - 1 points
  };
  Mode mode = Mode::exhaustive;
  int preemption_bound = 2;  // loom's advice: 2 or 3 finds most bugs
  std::uint64_t max_executions = 100000;  // a cap: past it the search is reported incomplete
  double max_seconds = 15;                // likewise
  int pct_runs = 2000;
  int pct_depth = 3;
  std::uint64_t seed = 1;
  std::size_t max_steps = 20000;  // operations in one execution before it counts as a livelock
  int load_history = 7;           // how many of a location's newest stores a load may read (loom: 7)
  // A timed wait (condition_variable::wait_for) may time out at any step,
  // not only when no thread can run: each such early timeout counts as a
  // preemption. Off by default: it multiplies the schedules, and only a
  // body whose timeout races another thread's work needs it. Exhaustive
  // mode only.
  bool early_timeouts = false;
  // Runs only the execution this string names (printed with a failure);
  // empty: the environment's MODEL_REPLAY, if set.
  std::string replay;
};

// What a search found.
struct Report {
  bool failed = false;
  std::string kind;        // "check failed", "deadlock", "data race", "leak", "exception", ...
  std::string message;     // one paragraph: what went wrong, where
  std::string schedule;    // the failing execution, step by step
  std::string replay;      // MODEL_REPLAY=... runs exactly that execution again
  std::uint64_t executions = 0;
  bool complete = false;   // every schedule within the bound was tried
  double seconds = 0;
  std::string mode;        // how it searched, for the summary line

  // "model: 1,234 executions, every schedule with at most 2 preemptions, 0.4 s"
  std::string summary() const;
  // The summary, and for a failure the message, the schedule and the replay line.
  std::string describe() const;
};

// Runs body under every schedule Options allow; returns at the first
// failure, or when the search is done. One search at a time per process.
Report explore(const std::function<void()>& body, const Options& options = {});

// Inside a body: fails the execution when `ok` is false.
void check(bool ok, const char* what, Where where = Where::current());

// Inside a body: a spin loop's wait, which tells the checker that this
// thread makes no progress until another one runs.
void yield_now(Where where = Where::current());

// Inside a body: how many of the execution's threads have not ended, the
// calling one included. A detached thread that still runs counts: what a
// shutdown that must join every thread it started can be checked by.
int threads_running();

}  // namespace model
