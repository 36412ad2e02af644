// Starting, watching and stopping one child process; see child_process.hpp.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <system_error>

#include "output_capture.hpp"

extern char** environ;

namespace grader {

namespace {

using Clock = std::chrono::steady_clock;

// The process group of the child being run, for the interrupt handler.
volatile sig_atomic_t g_running_group = 0;

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
std::vector<std::string> environment_for(const ChildRequest& request, int result_fd) {
  std::vector<std::pair<std::string, std::string>> added = request.environment;
  if (!request.result_fd_variable.empty())
    added.emplace_back(request.result_fd_variable, std::to_string(result_fd));
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

[[noreturn]] void become_child(char** argv, char** envp, int output_fd, int result_fd,
                               pid_t grader) {
  setpgid(0, 0);
  // If the grader dies, even by SIGKILL, its test must not live on.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != grader) _exit(127);
  int null_fd = open("/dev/null", O_RDONLY);
  dup2(null_fd, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (result_fd >= 0) fcntl(result_fd, F_SETFD, 0);
  execvpe(argv[0], argv, envp);
  const char message[] = "grader: cannot execute the program\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  _exit(127);
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
        result_fd_(result_fd) {
    if (request.timeout)
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(*request.timeout);
  }

  ChildOutcome run() {
    while (!finished()) wait_a_little();
    kill(-pid_, SIGKILL);  // whatever it left running in its group
    if (!reaped_) waitpid(pid_, &status_, 0);
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
    if (reaped_ && (!pipes_open() || Clock::now() - exited_at_ > after_exit_grace)) return true;
    if (deadline_ && Clock::now() >= *deadline_) timed_out_ = true;
    return timed_out_;
  }

  void wait_a_little() {
    pollfd fds[2] = {{output_fd_, POLLIN, 0}, {result_fd_, POLLIN, 0}};
    int wait_ms = pipes_open() ? 50 : 5;
    if (poll(fds, 2, wait_ms) <= 0) return;
    if (fds[0].revents)
      read_available(output_fd_, [this](const char* d, std::size_t n) { capture_.append(d, n); });
    if (fds[1].revents)
      read_available(result_fd_, [this](const char* d, std::size_t n) {
        if (result_.size() < result_limit) result_.append(d, n);
      });
  }

  ChildOutcome outcome() {
    ChildOutcome o;
    o.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    o.timed_out = timed_out_;
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
};

}  // namespace

ChildOutcome run_child(const ChildRequest& request) {
  Pipe output = make_pipe();
  Pipe result = request.result_fd_variable.empty() ? Pipe{} : make_pipe();
  std::vector<std::string> env = environment_for(request, result.write);
  std::vector<std::string> args = request.argv;
  std::vector<char*> envp = pointers_to(env);
  std::vector<char*> argv = pointers_to(args);

  pid_t grader = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) become_child(argv.data(), envp.data(), output.write, result.write, grader);

  setpgid(pid, pid);  // also here, so the group exists before any kill
  g_running_group = pid;
  close_fd(output.write);
  close_fd(result.write);
  ChildOutcome outcome = Watch(pid, request, output.read, result.read).run();
  g_running_group = 0;
  return outcome;
}

void install_interrupt_cleanup() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  std::signal(SIGHUP, on_interrupt);
}

}  // namespace grader
