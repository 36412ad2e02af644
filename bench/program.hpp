// What every benchmark program does around its workloads: the command line,
// the warm-up, the timed iterations, the counted one, and the one JSON line
// that scripts/bench reads. A program is built once per runtime; it runs one
// workload in one flavour per process, so that each process starts afresh.
//
//   bench-solutions-03 --workload ping_pong [--flavour multi_thread]
//       [--workers 2] [--iterations 5] [--warmup 1] [--count-allocations]
//       [--smoke]
//
// program.cpp holds the code, compiled once for every program: the command
// line library is the slow part of a build, and it does not depend on the
// runtime.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "workloads.hpp"

namespace bench {

struct Options {
  std::string workload;
  Flavour flavour = Flavour::current_thread;
  int workers = 2;
  int iterations = 5;
  int warmup = 1;
  bool count_allocations = false;
  Size size = Size::full;
};

// Makes the workload the options ask for, on a fresh runtime, or throws
// CannotRun.
using Factory = std::function<std::unique_ptr<Workload>(const Options&)>;

// Parses the command line, runs the workload `make` gives and prints its
// line; the exit code says ran, failed or cannot run.
int program_main(int argc, char** argv, const std::string& runtime, const Factory& make);

}  // namespace bench
