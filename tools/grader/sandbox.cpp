// Run areas and the sandbox user; see sandbox.hpp.
#include "sandbox.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>

#include "child_process.hpp"
#include "console_report.hpp"
#include "usage_error.hpp"

namespace grader {

namespace fs = std::filesystem;

namespace {

void require_root() {
  if (geteuid() != 0)
    throw UsageError("--sandbox runs tests as an unprivileged user of their own, which needs the "
                     "grader to run as root (sudo); without root, drop --sandbox");
}

std::pair<uid_t, gid_t> sandbox_identity() {
  require_root();
  if (passwd* user = getpwnam(sandbox_user_name)) return {user->pw_uid, user->pw_gid};
  print_progress(std::string("creating the unprivileged user '") + sandbox_user_name +
                 "' that sandboxed tests run as");
  ChildRequest useradd;
  useradd.argv = {"useradd",  "--system",    "--user-group", "--no-create-home",
                  "--shell",  "/usr/sbin/nologin", "--home-dir", "/nonexistent",
                  sandbox_user_name};
  ChildOutcome outcome = run_child(useradd);
  passwd* user = getpwnam(sandbox_user_name);
  if (user == nullptr)
    throw UsageError(std::string("cannot create the sandbox user '") + sandbox_user_name +
                     "' (useradd: " + outcome.output +
                     "); create it by hand, or grade with --no-sandbox");
  if (user->pw_uid == 0) throw UsageError(std::string(sandbox_user_name) + " must not be root");
  return {user->pw_uid, user->pw_gid};
}

// The user ids a run takes one of: far above any account's, the group the
// same number. A lock file per id, held for the run, keeps two runs on one
// machine from taking the same.
constexpr uid_t first_run_uid = 0x6c000000;
constexpr uid_t run_uids = 1 << 16;
constexpr const char lock_folder[] = "/run/grader-sandbox";

// What a throw-away child of root found out about `uid`.
enum class Probe { no_such_user, no_namespaces, namespaces };

// Whether root may make the namespaces of a test's own /tmp, System V IPC
// and network here (child_process.cpp, enter_private_tmp), and
// whether `uid` can be taken; with `sweep`, the child then kills every
// process of `uid`, which a run that died before cleaning up may have left
// (kill(-1) spares the caller).
Probe probe(uid_t uid, bool sweep) {
  pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    int namespaces = unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET) == 0 ? 0 : 1;
    if (setgroups(0, nullptr) != 0 || setgid(uid) != 0 || setuid(uid) != 0) _exit(2);
    if (sweep) kill(-1, SIGKILL);
    _exit(namespaces);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 2) return Probe::no_such_user;
  return WEXITSTATUS(status) == 0 ? Probe::namespaces : Probe::no_namespaces;
}

// A lock on `uid` for this run, or -1 when another run holds it.
int lock_user(uid_t uid) {
  std::string path = std::string(lock_folder) + "/" + std::to_string(uid);
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  close(fd);
  return -1;
}

std::string make_root() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/grader-run-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
  // Others may enter (the sandbox user runs binaries here) but not list or write.
  chmod(pattern.c_str(), 0711);
  return pattern;
}

}  // namespace

RunArea::RunArea(bool sandbox, std::optional<uid_t> builder) : builder_(builder) {
  if (sandbox) take_user_of_this_run();
  root_ = make_root();
  start_janitor();
}

// A child that outlives the grader to clean up after it: when the pipe's
// other end closes (the grader exited, or was killed, even by SIGKILL), it
// kills what this run's user left and removes the run area. It leaves the
// terminal's process group and ignores hang-ups, so that Ctrl-C, which
// stops the grader, does not stop it.
void RunArea::start_janitor() {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    setpgid(0, 0);
    // Whoever reads the grader's output must not wait for the janitor.
    int null_fd = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) dup2(null_fd, fd);
    std::signal(SIGHUP, SIG_IGN);
    std::signal(SIGINT, SIG_IGN);
    close(ends[1]);
    char byte;
    while (read(ends[0], &byte, 1) != 0 && errno == EINTR) {
    }
    if (user_) probe(user_->uid(), true);
    if (builder_) probe(*builder_, true);
    std::error_code ignored;
    fs::remove_all(root_, ignored);
    _exit(0);
  }
  close(ends[0]);
  janitor_pipe_ = ends[1];
  janitor_ = pid;
  spare_from_leftovers(pid);
}

std::unique_ptr<RunUser> RunUser::take() {
  require_root();
  mkdir(lock_folder, 0700);
  std::random_device random;
  for (int attempt = 0; attempt < 64; ++attempt) {
    uid_t uid = first_run_uid + random() % run_uids;
    int lock = lock_user(uid);
    if (lock < 0) continue;
    Probe found = probe(uid, true);
    if (found == Probe::no_such_user) {
      close(lock);
      return nullptr;
    }
    return std::unique_ptr<RunUser>(new RunUser(uid, lock, found == Probe::namespaces));
  }
  return nullptr;
}

RunUser::~RunUser() {
  probe(uid_, true);  // nothing of this run's user outlives it
  close(lock_);
}

void RunArea::take_user_of_this_run() {
  user_ = RunUser::take();
  if (user_) {
    identity_ = {user_->uid(), user_->uid()};
    private_tmp_ = user_->namespaces();
  } else {
    identity_ = sandbox_identity();
    private_tmp_ = probe(identity_->first, false) == Probe::namespaces;
    warnings_.push_back(std::string("no user id of this run's own could be taken (") +
                        lock_folder + ", or a kernel that maps few ids): tests run as '" +
                        sandbox_user_name + "', like those of any other run on this machine");
  }
  if (!private_tmp_)
    warnings_.push_back("root cannot make mount, IPC and network namespaces here (a container "
                        "without CAP_SYS_ADMIN?): tests share the machine's /tmp, /dev/shm, "
                        "System V IPC and abstract sockets");
}

RunArea::~RunArea() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
  user_.reset();     // nothing of this run's user outlives it
  close(janitor_pipe_);  // the janitor finds nothing left, and ends
  while (waitpid(janitor_, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::string RunArea::install(const std::string& binary, Access access) {
  std::string copy =
      root_ + "/" + std::to_string(++installed_) + "-" + fs::path(binary).filename().string();
  fs::copy_file(binary, copy, fs::copy_options::overwrite_existing);
  chmod(copy.c_str(), access == grader_only ? 0500 : 0555);
  return copy;
}

std::string RunArea::scratch() {
  std::string dir = root_ + "/scratch-" + std::to_string(++scratches_);
  fs::create_directory(dir);
  if (identity_ && chown(dir.c_str(), identity_->first, identity_->second) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot hand " + dir + " over");
  chmod(dir.c_str(), 0700);
  return dir;
}

void RunArea::remove_scratch(const std::string& dir) {
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

}  // namespace grader
