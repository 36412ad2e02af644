// What a hung test was doing; see hang_diagnosis.hpp.
#include "hang_diagnosis.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "proc_threads.hpp"

namespace grader {

namespace {

// Long enough to see a spinning thread use the CPU on a loaded machine
// (the kernel counts CPU time in ticks of 10 ms), short enough to cost
// nothing next to the timeout itself.
constexpr auto sample_window = std::chrono::milliseconds(500);
// A thread that used this share of the window, or was running at both
// looks, is busy; a waiting thread uses none.
constexpr double busy_share = 0.06;
constexpr std::size_t threads_listed = 8;
constexpr std::size_t frame_lines = 40;
constexpr std::size_t frames_per_thread = 5;
constexpr std::size_t longest_frame = 150;
constexpr std::size_t text_width = 88;
constexpr double gdb_seconds = 20;

std::string state_name(char state) {
  switch (state) {
    case 'R': return "running";
    case 'S': return "sleeping";
    case 'D': return "waiting in the kernel";
    case 'T': return "stopped";
    case 't': return "stopped by a debugger";
    case 'Z': return "exited";
    default: return fmt::format("state {}", state);
  }
}

struct ThreadReport {
  ThreadState state;
  double window_cpu = 0;
  bool busy = false;
};

std::vector<ThreadReport> compare(const std::vector<ThreadState>& before,
                                  const std::vector<ThreadState>& after, double window_seconds) {
  double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::vector<ThreadReport> reports;
  for (const ThreadState& t : after) {
    auto earlier = std::find_if(before.begin(), before.end(),
                                [&t](const ThreadState& b) { return b.tid == t.tid; });
    long start = earlier == before.end() ? 0 : earlier->ticks;
    ThreadReport r{t, static_cast<double>(t.ticks - start) * tick, false};
    bool running_both_times =
        t.state == 'R' && earlier != before.end() && earlier->state == 'R';
    r.busy = r.window_cpu >= busy_share * window_seconds || running_both_times;
    reports.push_back(r);
  }
  return reports;
}

std::string thread_lines(const std::vector<ThreadReport>& reports, double window_seconds) {
  std::string text;
  for (std::size_t i = 0; i < reports.size() && i < threads_listed; ++i) {
    const ThreadReport& r = reports[i];
    text += fmt::format("  thread {} ({}): {}, {:.2f} s of CPU in the last {:.1f} s{}\n",
                        r.state.tid, r.state.name, state_name(r.state.state), r.window_cpu,
                        window_seconds,
                        r.state.waits_in.empty() ? "" : ", in the kernel's " + r.state.waits_in);
  }
  if (reports.size() > threads_listed)
    text += fmt::format("  ... and {} more threads\n", reports.size() - threads_listed);
  return text;
}

std::string reading(const std::vector<ThreadReport>& reports) {
  long busy = std::count_if(reports.begin(), reports.end(),
                            [](const ThreadReport& r) { return r.busy; });
  bool stopped = std::any_of(reports.begin(), reports.end(), [](const ThreadReport& r) {
    return r.state.state == 'T' || r.state.state == 't';
  });
  if (busy > 0)
    return fmt::format(
        "{} kept running instead of waiting: a busy loop{}. Look for a loop that never "
        "sees what it waits for (a flag nobody sets, a retry that never succeeds), or a task "
        "that wakes itself and is polled again, forever.",
        busy == 1 ? "one thread" : fmt::format("{} threads", busy),
        busy == 1 ? "" : ", or a livelock (threads that keep undoing each other's work)");
  if (stopped) return "the process was stopped (a signal or a debugger), not running.";
  return "every thread was asleep: a deadlock or a lost wake-up, which look the same "
         "from outside. A deadlock: two threads or tasks each wait for the other (a lock "
         "held while waiting, a task that joins one waiting for it). A lost wake-up: a task "
         "waits for a wake that came too early or never comes (a wake during a poll that "
         "was dropped, a waker stored after the check that needed it, a task never queued "
         "again). Where each thread waits tells which.";
}

// `text` broken into lines of at most text_width characters, at spaces.
std::string wrapped(const std::string& text, const std::string& indent) {
  std::istringstream words(text);
  std::string out, line;
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > text_width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.empty() || line == indent ? "" : " ") + word;
  }
  return out + line + "\n";
}

bool gdb_installed() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/gdb").c_str(), X_OK) == 0) return true;
  return false;
}

// "#1  0x000055d in rt::Worker::park (this=0x..., n=3) at ../src/rt/park.cpp:42"
// becomes "#1 rt::Worker::park at park.cpp:42".
std::string short_frame(const std::string& line) {
  std::string frame = line;
  auto number_end = frame.find(' ');
  std::string number = frame.substr(0, number_end);
  std::string rest = number_end == std::string::npos ? "" : frame.substr(number_end);
  rest.erase(0, rest.find_first_not_of(' '));
  if (rest.rfind("0x", 0) == 0) {
    auto in = rest.find(" in ");
    if (in != std::string::npos) rest.erase(0, in + 4);
  }
  std::string place;
  auto at = rest.rfind(" at ");
  if (at == std::string::npos) at = rest.rfind(" from ");
  if (at != std::string::npos) {
    place = rest.substr(at);
    rest.erase(at);
    auto slash = place.rfind('/');
    if (slash != std::string::npos)
      place = place.substr(0, place.find(' ', 1) + 1) + place.substr(slash + 1);
  }
  // The arguments are the last balanced parentheses of what is left.
  if (!rest.empty() && rest.back() == ')') {
    int depth = 0;
    for (std::size_t i = rest.size(); i-- > 0;) {
      if (rest[i] == ')') ++depth;
      if (rest[i] == '(' && --depth == 0) {
        rest.erase(i);
        break;
      }
    }
  }
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  std::string shortened = number + " " + rest + place;
  if (shortened.size() > longest_frame) shortened = shortened.substr(0, longest_frame) + "...";
  return shortened;
}

// "Thread 2 (Thread 0x7f... (LWP 1235) "name"):" becomes "thread 1235:".
std::string short_thread(const std::string& line) {
  auto lwp = line.find("(LWP ");
  if (lwp == std::string::npos) return line;
  auto end = line.find(')', lwp);
  return "thread " + line.substr(lwp + 5, end - lwp - 5) + ":";
}

// The C library's and the standard library's own workings ("__lll_lock_wait",
// "std::__invoke_impl"): below the innermost frame, the frames that say
// where the test's or the runtime's code waits are the ones worth a line.
bool is_library_internal(const std::string& frame) {
  auto name = frame.find(' ');
  if (name == std::string::npos) return false;
  std::string function = frame.substr(name + 1);
  return function.rfind("_", 0) == 0 || function.find("::_") != std::string::npos;
}

std::string gdb_frames(pid_t pid) {
  if (!gdb_installed()) return "";
  ChildRequest gdb;
  // A sandboxed test has a /tmp of its own (sandbox.hpp), where its binary
  // is not: gdb reads the files from the grader's side, not the test's.
  gdb.argv = {"gdb", "-iex", "set sysroot /", "-p", std::to_string(pid), "-batch", "-nx",
              "-ex", "set pagination off", "-ex", "thread apply all bt 16"};
  gdb.timeout = std::chrono::duration<double>(gdb_seconds);
  ChildOutcome outcome = run_child(gdb);
  std::istringstream in(outcome.output);
  std::string text;
  std::size_t lines = 0, frames = 0;
  for (std::string line; std::getline(in, line) && lines < frame_lines;) {
    if (line.rfind("Thread ", 0) == 0) {
      text += "  " + short_thread(line) + "\n";
      ++lines;
      frames = 0;
    } else if (line.rfind("#", 0) == 0 && frames < frames_per_thread) {
      std::string frame = short_frame(line);
      if (frames > 0 && is_library_internal(frame)) continue;
      text += "    " + frame + "\n";
      ++lines;
      ++frames;
    }
  }
  if (text.empty()) {
    bool refused = outcome.output.find("ptrace") != std::string::npos;
    return refused ? "gdb could not attach to the process (ptrace is not allowed here)\n" : "";
  }
  return "each thread's top frames (gdb):\n" + text;
}

// Said when /proc has nothing on the process: the three causes, none
// singled out.
constexpr const char unreadable[] =
    "What it was doing could not be read from /proc: a busy loop, a deadlock, or a wait for a "
    "wake-up that never comes.\n";

}  // namespace

std::string diagnose_hang(pid_t pid, double wall_seconds) {
  std::vector<ThreadState> before = read_threads(pid);
  if (before.empty()) return unreadable;
  auto started = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(sample_window);
  std::vector<ThreadState> after = read_threads(pid);
  double window = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (after.empty()) return unreadable;
  double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::vector<std::string> process = stat_fields(read_first_line(fmt::format("/proc/{}/stat", pid)), nullptr);
  double cpu = static_cast<double>(cpu_ticks(process)) * tick;
  std::vector<ThreadReport> reports = compare(before, after, window);
  std::string text = wrapped("What it was doing: " + reading(reports), "  ");
  text += fmt::format("  CPU time {:.1f} s in {:.1f} s of wall time, over {} thread{}\n", cpu,
                      wall_seconds, reports.size(), reports.size() == 1 ? "" : "s");
  text += thread_lines(reports, window);
  return text + gdb_frames(pid);
}

}  // namespace grader
