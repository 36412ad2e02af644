// Telling early that a test can never finish; see stuck_process.hpp.
#include "stuck_process.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>

#include "proc_threads.hpp"

namespace grader {

namespace {

constexpr std::chrono::milliseconds look_every{250};

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

// The thread picture of `pid` if every thread is asleep for good; nothing
// otherwise.
std::optional<std::string> asleep_for_good(pid_t pid) {
  std::vector<ThreadState> threads = read_threads(pid);
  if (threads.empty()) return std::nullopt;
  std::string picture;
  long ticks = 0;
  for (const ThreadState& thread : threads) {
    if (thread.state != 'S') return std::nullopt;
    std::string dir = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(thread.tid);
    // A child started by a test may be what it waits for.
    std::string children = read_all(dir + "/children");
    if (children.find_first_not_of(" \n") != std::string::npos) return std::nullopt;
    std::string syscall = read_all(dir + "/syscall");
    if (!waits_for_ever(syscall)) return std::nullopt;
    ticks += thread.ticks;
    picture += std::to_string(thread.tid) + " " + syscall;
  }
  return picture + "ticks " + std::to_string(ticks);
}

}  // namespace

bool waits_for_ever(const std::string& syscall_line) {
  std::istringstream in(syscall_line);
  long number = -1;
  if (!(in >> number)) return false;  // "running", or unreadable
  std::uint64_t args[6] = {};
  for (std::uint64_t& arg : args) {
    std::string hex;
    if (!(in >> hex)) return false;
    arg = std::stoull(hex, nullptr, 16);
  }
  if (number == SYS_futex) {
    std::uint64_t op = args[1] & ~std::uint64_t{FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME};
    return (op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET) && args[3] == 0;
  }
  // epoll_wait(epfd, events, max, timeout): an int, -1 for no end.
  bool no_timeout = (args[3] & 0xffffffffu) == 0xffffffffu;
#ifdef SYS_epoll_wait
  if (number == SYS_epoll_wait) return no_timeout;
#endif
  if (number == SYS_epoll_pwait) return no_timeout;
#ifdef SYS_epoll_pwait2
  if (number == SYS_epoll_pwait2) return args[3] == 0;  // a timespec pointer: NULL for no end
#endif
  return false;
}

bool StuckWatch::stuck(pid_t pid) {
  Clock::time_point now = Clock::now();
  if (now - last_look_ < look_every) return false;
  last_look_ = now;
  std::optional<std::string> picture = asleep_for_good(pid);
  if (!picture) {
    picture_.reset();
    return false;
  }
  if (picture != picture_) {
    // Something moved (or is not asleep for good): start over.
    picture_ = std::move(picture);
    since_ = now;
    return false;
  }
  return now - since_ >= window;
}

}  // namespace grader
