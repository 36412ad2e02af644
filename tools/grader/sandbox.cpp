// Run areas and the sandbox user; see sandbox.hpp.
#include "sandbox.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "child_process.hpp"
#include "console_report.hpp"
#include "usage_error.hpp"

namespace grader {

namespace fs = std::filesystem;

namespace {

std::pair<uid_t, gid_t> sandbox_identity() {
  if (geteuid() != 0)
    throw UsageError(std::string("--sandbox runs tests as the unprivileged user '") +
                     sandbox_user_name +
                     "', which needs the grader to run as root (sudo); without root, drop "
                     "--sandbox");
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

RunArea::RunArea(bool sandbox) {
  if (sandbox) identity_ = sandbox_identity();
  root_ = make_root();
}

RunArea::~RunArea() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

std::string RunArea::install(const std::string& binary) {
  std::string copy =
      root_ + "/" + std::to_string(++installed_) + "-" + fs::path(binary).filename().string();
  fs::copy_file(binary, copy, fs::copy_options::overwrite_existing);
  chmod(copy.c_str(), 0555);
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
