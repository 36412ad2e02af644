// Starting, watching and stopping one child process; see child_process.hpp.
#include "child_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

#include "build_view.hpp"
#include "output_capture.hpp"

extern char** environ;

namespace grader {

namespace {

using Clock = std::chrono::steady_clock;

// The process group of the child being run, for the interrupt handler.
volatile sig_atomic_t g_running_group = 0;

// The grader's own helpers, children that must survive kill_leftovers: the
// watchdog that resumes a stopped grader (see install_process_guards) and
// the run area's janitor (sandbox.hpp).
std::vector<pid_t> g_spared;

void on_interrupt(int signal_number) {
  pid_t group = g_running_group;
  if (group > 0) kill(-group, SIGKILL);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

struct Pipe {
  int read = -1;
  int write = -1;
};

// Close-on-exec, so no child inherits another child's pipes by accident.
Pipe make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  return {fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Our environment plus the request's, prepared before fork because the
// child may only make async-signal-safe calls.
std::vector<std::string> environment_for(const ChildRequest& request) {
  const std::vector<std::pair<std::string, std::string>>& added = request.environment;
  std::vector<std::string> entries;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    bool replaced = false;
    for (const auto& [name, value] : added) replaced |= entry.rfind(name + "=", 0) == 0;
    if (!replaced) entries.push_back(entry);
  }
  for (const auto& [name, value] : added) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

[[noreturn]] void child_failed(const char* message) {
  ssize_t ignored = write(STDERR_FILENO, message, std::strlen(message));
  (void)ignored;
  _exit(127);
}

// What the child is, set up between fork and exec (async-signal-safe calls
// only).
struct ChildSetup {
  char** argv;
  char** envp;
  int output_fd;
  int channel_fd;  // -1 when there is no result channel
  const char* working_dir;
  const std::optional<std::pair<uid_t, gid_t>>* run_as;
  unsigned long long file_size;
  const std::optional<unsigned long long>* address_space;
  const std::optional<unsigned long long>* cpu_seconds;
  const char* private_tmp;  // "" when none
  const ViewPlan* view;     // nullptr when none
  pid_t grader;
};

// A new network namespace has a loopback, down: tests bind 127.0.0.1.
bool loopback_up() {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ifreq request{};
  std::memcpy(request.ifr_name, "lo", 3);
  bool up = ioctl(fd, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
  up = up && ioctl(fd, SIOCSIFFLAGS, &request) == 0;
  close(fd);
  return up;
}

// The sandbox's own /tmp, /dev/shm, /var/tmp and /run/lock, System V IPC
// and network (see ChildRequest::private_tmp): the namespaces end with the
// test's last process, and what it made in them with it. The binary is
// opened first: its path may be under the /tmp this hides. Returns the
// descriptor to execute.
int enter_private_tmp(const ChildSetup& s) {
  int binary = open(s.argv[0], O_RDONLY | O_CLOEXEC);
  if (binary < 0) child_failed("grader: cannot execute the program\n");
  if (unshare(CLONE_NEWIPC | CLONE_NEWNET) != 0 || !loopback_up())
    child_failed("grader: cannot give the test System V IPC and a network of its own\n");
  if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      mount(s.private_tmp, "/tmp", nullptr, MS_BIND, nullptr) != 0)
    child_failed("grader: cannot give the test a private /tmp\n");
  for (const char* shared : {"/dev/shm", "/var/tmp", "/run/lock"})
    if (access(shared, F_OK) == 0 &&
        mount("tmpfs", shared, "tmpfs", MS_NOSUID | MS_NODEV, "size=256m,mode=1777") != 0)
      child_failed("grader: cannot give the test a private /dev/shm, /var/tmp or /run/lock\n");
  if (chdir("/tmp") != 0) child_failed("grader: cannot enter the test's private /tmp\n");
  return binary;
}

// The sandbox's limits, for a user of this run alone (see ChildRequest::run_as).
void limit_user(const ChildSetup& s) {
  // A process per test is plenty; a fork bomb stops here, not at the machine.
  rlimit processes{256, 256};
  setrlimit(RLIMIT_NPROC, &processes);
  rlimit file_size{s.file_size, s.file_size};
  setrlimit(RLIMIT_FSIZE, &file_size);
}

// Each process's own memory and CPU, whoever it runs as, where asked for.
void limit_process(const ChildSetup& s) {
  if (*s.address_space) {
    rlimit memory{**s.address_space, **s.address_space};
    setrlimit(RLIMIT_AS, &memory);
  }
  if (*s.cpu_seconds) {
    rlimit cpu{**s.cpu_seconds, **s.cpu_seconds};
    setrlimit(RLIMIT_CPU, &cpu);
  }
}

[[noreturn]] void become_child(const ChildSetup& s) {
  setpgid(0, 0);
  int null_fd = open("/dev/null", O_RDONLY);
  dup2(null_fd, STDIN_FILENO);
  dup2(s.output_fd, STDOUT_FILENO);
  dup2(s.output_fd, STDERR_FILENO);
  if (s.channel_fd >= 0) {
    if (s.channel_fd != 3 && dup2(s.channel_fd, 3) != 3) child_failed("grader: no channel\n");
    fcntl(3, F_SETFD, 0);
  }
  // Nothing else the grader holds (result files, build logs) is inherited.
  close_range(s.channel_fd >= 0 ? 4 : 3, ~0U, 0);
  // A build's view is entered first: its working folder is inside.
  if (s.view && !s.view->enter()) child_failed("grader: cannot enter the build's view of the files\n");
  if (s.working_dir[0] != '\0' && chdir(s.working_dir) != 0)
    child_failed("grader: cannot enter the test's working folder\n");
  int binary = s.private_tmp[0] != '\0' ? enter_private_tmp(s) : -1;
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  limit_process(s);
  if (*s.run_as) {
    auto [uid, gid] = **s.run_as;
    limit_user(s);
    if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
      child_failed("grader: cannot switch to the sandbox user\n");
  }
  // If the grader dies, even by SIGKILL, its test must not live on. Set
  // after setuid, which clears it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Where Yama restricts ptrace to a process's ancestors, let the grader's
  // own children (gdb, reading a hung test's stacks) attach; elsewhere this
  // fails harmlessly.
  prctl(PR_SET_PTRACER, static_cast<unsigned long>(s.grader), 0, 0, 0);
  if (getppid() != s.grader) _exit(127);
  if (binary >= 0) fexecve(binary, s.argv, s.envp);
  else execvpe(s.argv[0], s.argv, s.envp);
  child_failed("grader: cannot execute the program\n");
}

// The processes whose parent is the grader, read from /proc: with the
// grader as subreaper, every orphan of a test lands here.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return children;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // The command name may hold spaces and parentheses: fields follow the last ')'.
    auto paren = line.rfind(')');
    if (paren == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(line.c_str() + paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent)
      children.push_back(static_cast<pid_t>(pid));
  }
  closedir(proc);
  return children;
}

bool spared(pid_t pid) {
  return std::find(g_spared.begin(), g_spared.end(), pid) != g_spared.end();
}

// Kills and reaps every child the grader has, round after round, because
// killing one hands its own children to the grader.
void kill_leftovers() {
  for (int round = 0; round < 1000; ++round) {
    std::vector<pid_t> children = children_of(getpid());
    std::erase_if(children, spared);
    if (children.empty()) break;
    for (pid_t child : children) kill(child, SIGKILL);
    for (pid_t child : children) waitpid(child, nullptr, 0);
  }
  // Reaps what already exited, but never waits for a helper.
  for (pid_t child : children_of(getpid()))
    if (!spared(child)) waitpid(child, nullptr, WNOHANG);
}

// The state letter in /proc/PID/stat: 'T' when stopped by a signal.
char process_state(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return '?';
  auto paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() ? '?' : line[paren + 2];
}

// A test running as the grader's own user can send it SIGSTOP, which no
// handler can catch; a second process can undo it. It polls ten times a
// second and dies with the grader.
void start_watchdog() {
  pid_t grader = getpid();
  pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0) g_spared.push_back(pid);
    return;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  close_range(0, ~0U, 0);
  while (getppid() == grader) {
    if (process_state(grader) == 'T') kill(grader, SIGCONT);
    usleep(100 * 1000);
  }
  _exit(0);
}

// Reads what is there; closes and forgets the descriptor at end of file.
template <typename Sink>
void read_available(int& fd, Sink&& sink) {
  char buffer[64 * 1024];
  ssize_t n = read(fd, buffer, sizeof buffer);
  if (n > 0) sink(buffer, static_cast<std::size_t>(n));
  if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) close_fd(fd);
}

// Watches a started child until it has exited and closed its pipes, or the
// deadline passes.
class Watch {
 public:
  Watch(pid_t pid, const ChildRequest& request, int output_fd, int result_fd)
      : pid_(pid),
        capture_(request.head_limit, request.tail_limit),
        output_fd_(output_fd),
        result_fd_(result_fd),
        kill_descendants_(request.kill_descendants),
        on_output_(request.on_output),
        on_timeout_(request.on_timeout),
        stuck_check_(request.stuck),
        marker_(request.marker),
        marker_grace_(std::chrono::duration_cast<Clock::duration>(request.marker_grace)) {
    if (request.timeout)
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(*request.timeout);
  }

  ChildOutcome run() {
    while (!finished()) wait_a_little();
    if (timed_out_ && on_timeout_) timeout_report_ = on_timeout_(pid_, seconds_run());
    kill(-pid_, SIGKILL);  // whatever it left running in its group
    if (!reaped_) {
      kill(pid_, SIGKILL);  // itself, should it have left the group
      waitpid(pid_, &status_, 0);
    }
    if (kill_descendants_) {
      // Everything else it started, then what they had written.
      kill_leftovers();
      auto until = Clock::now() + std::chrono::seconds(1);
      while (pipes_open() && Clock::now() < until) wait_a_little();
    }
    return outcome();
  }

 private:
  // Output still arriving after the child exited comes from something it
  // started; that gets this long before the group is killed.
  static constexpr std::chrono::seconds after_exit_grace{2};
  static constexpr std::size_t result_limit = 1024 * 1024;

  bool pipes_open() const { return output_fd_ >= 0 || result_fd_ >= 0; }

  bool finished() {
    if (!reaped_ && waitpid(pid_, &status_, WNOHANG) == pid_) {
      reaped_ = true;
      exited_at_ = Clock::now();
    }
    // A test's leftovers are killed at once: nothing they print counts.
    if (reaped_ && (kill_descendants_ || !pipes_open() ||
                    Clock::now() - exited_at_ > after_exit_grace))
      return true;
    if (deadline_ && Clock::now() >= *deadline_) {
      timed_out_ = true;
      stopped_at_ = Clock::now();
    } else if (!reaped_ && stuck_check_ && stuck_check_(pid_)) {
      timed_out_ = stuck_ = true;
      stopped_at_ = Clock::now();
    }
    return timed_out_;
  }

  void wait_a_little() {
    pollfd fds[2] = {{output_fd_, POLLIN, 0}, {result_fd_, POLLIN, 0}};
    int wait_ms = pipes_open() ? 50 : 5;
    if (poll(fds, 2, wait_ms) <= 0) return;
    if (fds[0].revents)
      read_available(output_fd_, [this](const char* d, std::size_t n) {
        capture_.append(d, n);
        watch_for_marker(d, n);
        if (on_output_) on_output_(d, n);
      });
    if (fds[1].revents)
      read_available(result_fd_, [this](const char* d, std::size_t n) {
        if (result_.size() < result_limit) result_.append(d, n);
      });
  }

  // The marker may arrive split across reads: the end of the last read is
  // kept, just too short to hold it whole.
  void watch_for_marker(const char* data, std::size_t size) {
    if (marker_.empty() || marker_seen_) return;
    recent_.append(data, size);
    if (recent_.find(marker_) != std::string::npos) {
      marker_seen_ = true;
      Clock::time_point sooner = Clock::now() + marker_grace_;
      if (!deadline_ || sooner < *deadline_) deadline_ = sooner;
      return;
    }
    if (recent_.size() >= marker_.size()) recent_.erase(0, recent_.size() - marker_.size() + 1);
  }

  // A child stopped at its deadline ran until then: what came after (the
  // report, the kill) is the grader's time.
  double seconds_run() const {
    Clock::time_point end = timed_out_ ? stopped_at_ : Clock::now();
    return std::chrono::duration<double>(end - start_).count();
  }

  ChildOutcome outcome() {
    ChildOutcome o;
    o.seconds = seconds_run();
    o.timed_out = timed_out_;
    o.stuck = stuck_;
    o.timeout_report = timeout_report_;
    if (WIFEXITED(status_)) o.exit_code = WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) o.signal = WTERMSIG(status_);
    o.output = capture_.text();
    o.result = result_;
    close_fd(output_fd_);
    close_fd(result_fd_);
    return o;
  }

  pid_t pid_;
  Clock::time_point start_ = Clock::now();
  std::optional<Clock::time_point> deadline_;
  Clock::time_point exited_at_;
  OutputCapture capture_;
  std::string result_;
  int output_fd_;
  int result_fd_;
  int status_ = 0;
  bool reaped_ = false;
  bool timed_out_ = false;
  Clock::time_point stopped_at_;
  bool kill_descendants_;
  std::function<void(const char*, std::size_t)> on_output_;
  std::function<std::string(pid_t, double)> on_timeout_;
  std::function<bool(pid_t)> stuck_check_;
  bool stuck_ = false;
  std::string timeout_report_;
  std::string marker_;
  Clock::duration marker_grace_;
  bool marker_seen_ = false;
  std::string recent_;
};


}  // namespace

void spare_from_leftovers(pid_t helper) {
  g_spared.push_back(helper);
}

ChildOutcome run_child(const ChildRequest& request) {
  Pipe output = make_pipe();
  Pipe channel = request.result_channel ? make_pipe() : Pipe{};
  std::vector<std::string> env = environment_for(request);
  std::vector<std::string> args = request.argv;
  std::vector<char*> envp = pointers_to(env);
  std::vector<char*> argv = pointers_to(args);
  ChildSetup setup{argv.data(),
                   envp.data(),
                   output.write,
                   channel.write,
                   request.working_dir.c_str(),
                   &request.run_as,
                   request.file_size,
                   &request.address_space,
                   &request.cpu_seconds,
                   request.private_tmp.c_str(),
                   request.view.get(),
                   getpid()};

  pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) become_child(setup);

  setpgid(pid, pid);  // also here, so the group exists before any kill
  // A child run while another waits (gdb reading a hung test) is the one an
  // interrupt kills; the test dies with the grader.
  pid_t outer_group = g_running_group;
  g_running_group = pid;
  close_fd(output.write);
  close_fd(channel.write);
  ChildOutcome outcome = Watch(pid, request, output.read, channel.read).run();
  g_running_group = outer_group;
  return outcome;
}

void install_process_guards() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  std::signal(SIGHUP, on_interrupt);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  start_watchdog();
}

}  // namespace grader
