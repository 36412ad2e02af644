// What a test that ran out of time was doing, read just before it is
// killed, so that the three ways a runtime hangs read differently:
//
//   - a busy loop or a livelock: some thread keeps using the CPU;
//   - a deadlock, or a lost wake-up: every thread sleeps (the two look the
//     same from outside; where each thread waits tells them apart).
//
// It reads the process's CPU time against the wall time, each thread's
// state and CPU use over a short window (from /proc), and, where gdb is
// installed, each thread's top frames. It only describes: a test that ran
// out of time is a timeout whatever this finds.
#pragma once

#include <sys/types.h>

#include <string>

namespace grader {

// `wall_seconds`: how long the test has run. Returns lines of text.
std::string diagnose_hang(pid_t pid, double wall_seconds);

}  // namespace grader
