// Runs one child process the way the grader needs: in its own process
// group (so a timeout kills everything it started), stdin from /dev/null,
// stdout and stderr captured together through one pipe, every other
// inherited descriptor closed, optionally a result channel on descriptor 3,
// another user's identity, and a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grader {

class ViewPlan;

struct ChildRequest {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environment;  // added to ours
  std::optional<std::chrono::duration<double>> timeout;
  // When `marker` appears in the output, the deadline comes at most
  // `marker_grace` later: what the marker announces has decided the run.
  std::string marker;
  std::chrono::duration<double> marker_grace{0};
  std::size_t head_limit = 64 * 1024;
  std::size_t tail_limit = 16 * 1024;
  // When set, descriptor 3 of the child is a pipe that carries the test's
  // result record back. Nothing about it is in the environment.
  bool result_channel = false;
  std::string working_dir;  // empty: the grader's own
  // When set, the child drops to this user and group before exec, with
  // the sandbox's limits: 256 processes for the user, files of at most
  // `file_size` bytes.
  std::optional<std::pair<uid_t, gid_t>> run_as;
  unsigned long long file_size = 256ull << 20;
  // When set, whoever the child runs as: `address_space` bytes of memory
  // and `cpu_seconds` of CPU for each of its processes.
  std::optional<unsigned long long> address_space;
  std::optional<unsigned long long> cpu_seconds;
  // When set (with run_as, as root), the child gets a mount namespace of
  // its own in which this folder is /tmp, its working folder, and /dev/shm,
  // /var/tmp and /run/lock are empty; and System V IPC and a network of
  // its own (a loopback, up): nothing it writes there, no segment, queue or
  // abstract socket it makes, is seen by any other test, or outlives it.
  std::string private_tmp;
  // When set (with run_as, as root), the child runs in this view of the
  // file system (build_view.hpp), and enters working_dir inside it: a
  // submission's build, which must find nothing but what it may read.
  std::shared_ptr<const ViewPlan> view;
  // Kill whatever the child left behind, in its process group or not.
  bool kill_descendants = false;
  // Called with each piece of output as it arrives (a build's progress).
  std::function<void(const char* data, std::size_t size)> on_output;
  // Called when the deadline has passed, before the child is killed, with
  // its pid and how long it ran: what it returns is the outcome's
  // timeout_report (what the child was doing).
  std::function<std::string(pid_t pid, double seconds)> on_timeout;
  // Asked now and then while the child runs: true stops it at once, as if
  // its deadline had come (a test every thread of which sleeps for good).
  std::function<bool(pid_t pid)> stuck;
};

struct ChildOutcome {
  std::string output;  // bounded, see OutputCapture
  std::string result;  // what arrived on the result channel
  bool timed_out = false;
  bool stuck = false;  // timed out early: `stuck` said so
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  double seconds = 0;  // until it ended, or until its deadline
  std::string timeout_report;  // from on_timeout
};

ChildOutcome run_child(const ChildRequest& request);

// Kills the running child's process group if the grader is interrupted, so
// that no test outlives the grader, and makes the grader the subreaper of
// everything its children start: a process that double-forks and calls
// setsid still ends up the grader's child, to be killed with its test; and
// starts a watchdog that resumes the grader should a test stop it.
void install_process_guards();

// A helper child of the grader's own, which the killing of a test's
// leftovers must spare.
void spare_from_leftovers(pid_t helper);

}  // namespace grader
