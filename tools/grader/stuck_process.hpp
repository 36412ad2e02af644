// Telling early that a test can never finish: every one of its threads
// asleep in a wait that has no timeout (a futex without one, epoll_wait
// with -1), for a couple of seconds, with no CPU used meanwhile. Nothing
// inside the process can wake it then, and nothing outside is waited for
// (no socket read, no poll, no sleep, no child): a deadlock or a lost
// wake-up, found in about two seconds instead of at the test's timeout.
//
// It errs one way only: any thread that is running, or waits with a
// timeout, or waits in any other call, or a process with children, or
// one whose threads /proc will not describe, is never called stuck.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

namespace grader {

class StuckWatch {
 public:
  // How long the same asleep-for-good picture must hold.
  static constexpr std::chrono::milliseconds window{3000};

  // Looks at `pid` (at most every few hundred milliseconds; cheap to call
  // more often). True once it has been asleep for good for `window`.
  bool stuck(pid_t pid);

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_look_{};
  std::optional<std::string> picture_;  // what every thread waits in, and CPU used
  Clock::time_point since_{};
};

// Whether one line of /proc/PID/task/TID/syscall is a wait with no end of
// its own: "202 0xADDR 0x80 0x1 0x0 ..." (futex, FUTEX_WAIT, no timeout),
// or an epoll_wait with timeout -1. Exposed for the grader's unit tests.
bool waits_for_ever(const std::string& syscall_line);

}  // namespace grader
