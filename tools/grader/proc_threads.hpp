// A process's threads as /proc describes them: each one's state, CPU
// time and where it sleeps; read by the hang diagnosis and by the watch
// that stops a test whose threads all sleep for good.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace grader {

struct ThreadState {
  pid_t tid = 0;
  std::string name;
  char state = '?';
  long ticks = 0;         // user + system CPU time, in clock ticks
  std::string waits_in;   // the kernel function it sleeps in, when known
};

// The first line of a file; empty when it cannot be read.
std::string read_first_line(const std::string& path);

// The fields of a /proc stat line after the command name (which may hold
// spaces and parentheses); the name itself into *name when given.
std::vector<std::string> stat_fields(const std::string& line, std::string* name);

// User + system CPU ticks, from a stat line's fields.
long cpu_ticks(const std::vector<std::string>& fields);

// Every thread of `pid`, by thread id; empty when /proc has nothing on it.
std::vector<ThreadState> read_threads(pid_t pid);

}  // namespace grader
