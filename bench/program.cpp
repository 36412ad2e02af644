// The part of every benchmark program that does not depend on the runtime
// (program.hpp): built once into a library that each program links.
#include "program.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <exception>
#include <fmt/core.h>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <time.h>
#include <vector>

#include "counting_allocator.hpp"

namespace bench {

namespace {

struct Measurement {
  std::vector<std::int64_t> ns;                // one total per timed iteration
  std::optional<std::uint64_t> allocations;    // in one more iteration, if counted
};

// Now, in nanoseconds, on the clock the workload is timed with: the
// monotonic clock, or the CPU time of every thread of the process.
std::int64_t now_ns(Timing timing) {
  if (timing == Timing::wall) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

Measurement measure(Workload& workload, const Options& options) {
  Timing timing = shape_of(options.workload, options.flavour, options.size).timing;
  Measurement result;
  for (int i = 0; i < options.warmup; ++i) workload.iteration();
  for (int i = 0; i < options.iterations; ++i) {
    std::int64_t start = now_ns(timing);
    workload.iteration();
    result.ns.push_back(now_ns(timing) - start);
  }
  if (options.count_allocations) {
    allocations::start();
    workload.iteration();
    result.allocations = allocations::stop();
  }
  return result;
}

void print_json(const std::string& runtime, const Options& options, const Measurement& m) {
  Shape shape = shape_of(options.workload, options.flavour, options.size);
  int workers = options.flavour == Flavour::current_thread ? 1 : options.workers;
  fmt::print(R"({{"runtime": "{}", "workload": "{}", "flavour": "{}", "workers": {}, )"
             R"("unit": "{}", "units": {}, "clock": "{}", "ns": [{}], "allocations": {}}})"
             "\n",
             runtime, options.workload, name_of(options.flavour), workers, shape.unit, shape.units,
             name_of(shape.timing), fmt::join(m.ns, ", "), m.allocations ? std::to_string(*m.allocations) : "null");
}

}  // namespace

int program_main(int argc, char** argv, const std::string& runtime, const Factory& make) {
  CLI::App app{"Runs one of the benchmark workloads on the runtime " + runtime +
               " and prints one JSON line (scripts/bench runs this)."};
  Options options;
  app.add_option("--workload", options.workload, "the workload")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>(workload_names.begin(), workload_names.end())));
  std::map<std::string, Flavour> flavours{{"current_thread", Flavour::current_thread},
                                          {"multi_thread", Flavour::multi_thread}};
  app.add_option("--flavour", options.flavour, "current_thread or multi_thread")
      ->transform(CLI::CheckedTransformer(flavours, CLI::ignore_case));
  app.add_option("--workers", options.workers, "worker threads of the multi-thread flavour")
      ->check(CLI::Range(1, 1024));
  app.add_option("--iterations", options.iterations, "timed iterations")->check(CLI::Range(0, 1'000'000));
  app.add_option("--warmup", options.warmup, "untimed iterations first")->check(CLI::Range(0, 1'000'000));
  app.add_flag("--count-allocations", options.count_allocations,
               "count the allocations of one more iteration");
  bool smoke = false;
  app.add_flag("--smoke", smoke, "the smaller shapes of a smoke run (scripts/bench --smoke)");
  CLI11_PARSE(app, argc, argv);
  if (smoke) options.size = Size::smoke;

  std::unique_ptr<Workload> workload;
  try {
    workload = make(options);
  } catch (const CannotRun& e) {
    fmt::print(stderr, "{} cannot run {} ({}): {}\n", runtime, options.workload, name_of(options.flavour),
               e.what());
    return cannot_run_exit_code;
  } catch (const std::exception& e) {  // a setup that failed (no socket, ...)
    fmt::print(stderr, "{}: setting up {} failed: {}\n", runtime, options.workload, e.what());
    return 1;
  }
  try {
    Measurement m = measure(*workload, options);
    workload.reset();  // the runtime shuts down cleanly before the report
    print_json(runtime, options, m);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {} failed: {}\n", runtime, options.workload, e.what());
    return 1;
  }
  return 0;
}

}  // namespace bench
