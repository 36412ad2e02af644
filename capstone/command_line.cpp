// The servers' command line, with CLI11; see command_line.hpp.
#include "capstone/command_line.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <fmt/core.h>

namespace redis {

CommandLine parse_command_line(int argc, char** argv, const std::string& description) {
  CommandLine line;
  CLI::App app{description};
  app.add_option("--bind", line.bind, "the address to listen on; port 0 picks a free one")->capture_default_str();
  app.add_option("--workers", line.workers, "worker threads (default: one a core; rt-redis also reads RT_WORKER_THREADS)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--current-thread", line.current_thread, "one thread, the caller's, runs everything");
  app.add_option("--shards", line.shards, "locks the keyspace is split over")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::exit(app.exit(error));
  }
  if (line.current_thread && line.workers > 1) {
    fmt::print(stderr, "--current-thread runs one thread: --workers {} makes no sense with it\n", line.workers);
    std::exit(2);
  }
  return line;
}

void print_listening(const std::string& address) {
  fmt::print("listening on {}\n", address);
  std::fflush(stdout);
}

}  // namespace redis
