// Where and as whom tests run. Every test binary is run from a private
// copy, so a test that overwrites its own binary changes nothing the next
// grade builds or runs, and from a scratch folder of its own. In sandbox
// mode (--sandbox, the default when the grader runs as root) tests also run
// as an unprivileged user that can write neither the course, nor the build,
// nor the result files, and cannot signal the grader.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>

namespace grader {

// The user sandboxed tests run as; created with useradd when missing.
inline constexpr const char* sandbox_user_name = "grader-sandbox";

class RunArea {
 public:
  // Throws UsageError when the sandbox user is missing and cannot be made.
  explicit RunArea(bool sandbox);
  ~RunArea();
  RunArea(const RunArea&) = delete;
  RunArea& operator=(const RunArea&) = delete;

  // A private, read-only copy of `binary` to run.
  std::string install(const std::string& binary);

  // A fresh empty folder for one test run, owned by whoever runs it.
  std::string scratch();
  void remove_scratch(const std::string& dir);

  // The user and group tests run as, when sandboxed.
  std::optional<std::pair<uid_t, gid_t>> identity() const { return identity_; }

 private:
  std::string root_;
  std::optional<std::pair<uid_t, gid_t>> identity_;
  int installed_ = 0;
  int scratches_ = 0;
};

}  // namespace grader
