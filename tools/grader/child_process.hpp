// Runs one child process the way the grader needs: in its own process
// group (so a timeout kills everything it started), stdin from /dev/null,
// stdout and stderr captured together through one pipe, optionally a second
// pipe for the test's result record, and a deadline.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grader {

struct ChildRequest {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environment;  // added to ours
  std::optional<std::chrono::duration<double>> timeout;
  std::size_t head_limit = 64 * 1024;
  std::size_t tail_limit = 16 * 1024;
  // When set, a result pipe is made and its number passed in this variable.
  std::string result_fd_variable;
};

struct ChildOutcome {
  std::string output;  // bounded, see OutputCapture
  std::string result;  // what arrived on the result pipe
  bool timed_out = false;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  double seconds = 0;
};

ChildOutcome run_child(const ChildRequest& request);

// Kills the running child's process group if the grader is interrupted, so
// that no test outlives the grader.
void install_interrupt_cleanup();

}  // namespace grader
