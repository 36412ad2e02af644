// Where and as whom tests run. Every test binary is run from a private
// copy, so a test that overwrites its own binary changes nothing the next
// grade builds or runs, and from a scratch folder of its own. In sandbox
// mode (--sandbox, the default when the grader runs as root) tests also run
// as an unprivileged user that can write neither the course, nor the build,
// nor the result files, and cannot signal the grader: a user id of this
// grading run alone, with no account, so that the tests of two runs on one
// machine cannot signal each other or share a process limit; and, where
// the kernel lets root make the namespaces, each test's scratch folder is
// its /tmp, with /dev/shm, /var/tmp and /run/lock empty, and it has System
// V IPC and a network (a loopback) of its own.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grader {

// The user sandboxed tests run as where a user id without an account
// cannot be taken (created with useradd when missing): then every run on
// the machine shares it.
inline constexpr const char* sandbox_user_name = "grader-sandbox";

// Who builds a submission when no user id of the run's own can be taken
// (RunUser): a user id with no account, just below the runs' own, shared by
// every such run.
inline constexpr uid_t builder_uid = 0x6bffffff;

// A user id of this grading run alone, with no account: locked (a file per
// id under /run/grader-sandbox) from take() until destroyed, and rid of
// every process it has when taken and when given back. A run's tests run
// as one, and the builder of a submission is another: the copy of the
// course and its build directories are the builder's, so that no other
// run's build or test can read, signal or trace its compilers.
class RunUser {
 public:
  // Throws UsageError without root; nullptr when no id can be taken.
  static std::unique_ptr<RunUser> take();
  ~RunUser();
  RunUser(const RunUser&) = delete;
  RunUser& operator=(const RunUser&) = delete;

  uid_t uid() const { return uid_; }
  // Whether root may make a test's namespaces here (child_process.cpp).
  bool namespaces() const { return namespaces_; }

 private:
  RunUser(uid_t uid, int lock, bool namespaces) : uid_(uid), lock_(lock), namespaces_(namespaces) {}
  uid_t uid_;
  int lock_;
  bool namespaces_;
};

// A sandboxed plain test's memory: 4 GiB of address space (threads' stacks
// count: 8 MiB each).
inline constexpr unsigned long long sandbox_address_space = 4ull << 30;

class RunArea {
 public:
  // Throws UsageError when the sandbox user is missing and cannot be made.
  // `builder`: the run's builder, whose processes the janitor also kills
  // should the grader die.
  explicit RunArea(bool sandbox, std::optional<uid_t> builder = std::nullopt);
  ~RunArea();
  RunArea(const RunArea&) = delete;
  RunArea& operator=(const RunArea&) = delete;

  // Who may run an installed copy: the tests' user too, or only the
  // grader (the hidden tests' reference, whose observations are the
  // expected values).
  enum Access { for_tests, grader_only };

  // A private, read-only copy of `binary` to run.
  std::string install(const std::string& binary, Access access = for_tests);

  // A fresh empty folder for one test run, owned by whoever runs it.
  std::string scratch();
  void remove_scratch(const std::string& dir);

  // The user and group tests run as, when sandboxed.
  std::optional<std::pair<uid_t, gid_t>> identity() const { return identity_; }

  // Whether each test gets its scratch folder as a private /tmp.
  bool private_tmp() const { return private_tmp_; }

  // Said once, before grading, when the sandbox is weaker than it should be.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void take_user_of_this_run();
  void start_janitor();

  std::string root_;
  std::optional<std::pair<uid_t, gid_t>> identity_;
  bool private_tmp_ = false;
  std::unique_ptr<RunUser> user_;  // the tests' user, when this run has one of its own
  std::optional<uid_t> builder_;
  int janitor_pipe_ = -1;  // its end closes when the grader ends, however
  pid_t janitor_ = -1;
  std::vector<std::string> warnings_;
  int installed_ = 0;
  int scratches_ = 0;
};

}  // namespace grader
