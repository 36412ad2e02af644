// Building with meson and ninja; see build.hpp.
#include "build.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "child_process.hpp"
#include "console_report.hpp"
#include "usage_error.hpp"

namespace grader {

namespace {

constexpr int error_lines = 15;

bool exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

// ninja's own progress and summary lines, between the compiler's.
bool is_ninja_chatter(const std::string& line) {
  return (!line.empty() && line[0] == '[') || line.rfind("ninja: build stopped", 0) == 0 ||
         line.rfind("FAILED: ", 0) == 0;
}

// Compiler errors say "error"; the linker's say what is undefined or
// defined twice, and only its last line says "error".
bool mentions_error(const std::string& line) {
  for (const char* marker : {"error", "Error", "undefined reference", "multiple definition",
                             "relocation ", "cannot find -l", "ld returned"})
    if (line.find(marker) != std::string::npos) return true;
  return false;
}

// The compiler names files as the build directory sees them
// ("../chapters/01-executor/rt/task.hpp:12"); a terminal or an editor
// opened at the repository's root follows "chapters/01-executor/...".
std::string from_root(std::string line) {
  for (const char* top : {"chapters/", "solutions/", "src/", "tests/", "capstone/", "model/"}) {
    std::string relative = std::string("../") + top;
    for (std::size_t at = line.find(relative); at != std::string::npos; at = line.find(relative, at + 1)) {
      bool starts_path = at == 0 || std::string_view(" '\"(`").find(line[at - 1]) != std::string_view::npos;
      if (starts_path) line.erase(at, 3);
    }
  }
  return line;
}

// From the first line that mentions an error, a screenful: enough to see
// what is wrong without the pages of notes compilers add.
std::string first_error_lines(const std::string& output) {
  std::istringstream in(output);
  std::string line, excerpt;
  int taken = 0;
  bool found = false;
  bool after_failed = false;
  while (taken < error_lines && std::getline(in, line)) {
    // ninja prints the failed command after "FAILED:"; its flags
    // (-Werror) are no error.
    bool is_command = after_failed;
    after_failed = line.rfind("FAILED: ", 0) == 0;
    if (is_command || is_ninja_chatter(line)) continue;
    found = found || mentions_error(line);
    if (!found) continue;
    excerpt += from_root(line) + "\n";
    ++taken;
  }
  return excerpt.empty() ? output.substr(0, 2000) : excerpt;
}

// ninja failing before it compiles anything is the build directory's
// problem (meson cannot regenerate it, the target does not exist), not the
// code's: it must not be reported as code that does not compile.
bool is_build_setup_failure(const std::string& output) {
  return output.find("ninja: error: rebuilding 'build.ninja'") != std::string::npos ||
         output.find("ninja: error: loading 'build.ninja'") != std::string::npos ||
         output.find("ninja: error: unknown target") != std::string::npos;
}

std::string ending(const std::string& text) {
  constexpr std::size_t shown = 3000;
  return text.size() <= shown ? text : "..." + text.substr(text.size() - shown);
}

}  // namespace

std::string prepare_build_dir(const std::string& builddir, const std::string& source_root,
                              Sanitizer sanitizer) {
  if (sanitizer == Sanitizer::none) return builddir;
  std::string base = builddir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();  // "build/" is "build"
  std::string dir = base + "-" + sanitizer_name(sanitizer);
  if (exists(dir)) return dir;
  print_progress("configuring " + dir + " for the " + sanitizer_name(sanitizer) + " sanitizer");
  ChildRequest setup;
  setup.argv = {"meson",
                "setup",
                dir,
                source_root,
                "-Db_sanitize=" + sanitizer_name(sanitizer),
                "-Db_lundef=false",
                "-Dexperiments=false",
                "-Dself_checks=false"};
  ChildOutcome outcome = run_child(setup);
  if (outcome.exit_code != 0)
    throw UsageError("meson setup " + dir + " failed:\n" + outcome.output);
  return dir;
}

namespace {

// Reads ninja's "[12/40] Compiling ..." lines out of its output, which
// arrives in pieces that need not end at a line's end.
class NinjaSteps {
 public:
  explicit NinjaSteps(BuildProgress progress) : progress_(std::move(progress)) {}

  void operator()(const char* data, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      if (data[i] != '\n') {
        if (line_.size() < 64) line_ += data[i];
        continue;
      }
      int step = 0, steps = 0;
      if (std::sscanf(line_.c_str(), "[%d/%d]", &step, &steps) == 2) progress_(step, steps);
      line_.clear();
    }
  }

 private:
  BuildProgress progress_;
  std::string line_;
};

}  // namespace

namespace {

// The longest a compiler may spend on one file, whatever the build's limit.
constexpr double max_cpu_per_compile = 600;

// Seconds left of the submission's build budget (none: no budget).
std::optional<double> seconds_left(const BuildLimits& limits) {
  if (!limits.seconds) return std::nullopt;
  std::chrono::duration<double> spent = std::chrono::steady_clock::now() - limits.start;
  return *limits.seconds - spent.count();
}

void confine(ChildRequest& ninja, const BuildLimits& limits, double left) {
  ninja.run_as = limits.run_as;
  ninja.file_size = 4ull << 30;  // a test binary with its debug information, under a sanitizer
  ninja.address_space = limits.address_space;
  if (!limits.seconds) return;
  ninja.timeout = std::chrono::duration<double>(left);
  ninja.kill_descendants = true;
  ninja.cpu_seconds = static_cast<unsigned long long>(std::min(*limits.seconds,
                                                               max_cpu_per_compile));
}

BuildResult run_ninja(const std::string& build_dir, const std::vector<std::string>& arguments,
                      const std::string& what, const BuildProgress& progress,
                      const BuildLimits& limits) {
  std::optional<double> left = seconds_left(limits);
  if (left && *left < 1)
    return {false, fmt::format("the build of {} was not started: the submission's builds used "
                               "up their {:.0f} s (--build-timeout) before it",
                               what, *limits.seconds)};
  ChildRequest ninja;
  ninja.argv = {"ninja", "-C", build_dir};
  if (limits.view) {
    // The view holds the build directory at its own absolute path, and
    // nothing of where the grader was started.
    std::string inside = std::filesystem::weakly_canonical(build_dir).string();
    ninja.argv = {"ninja", "-C", inside};
    ninja.working_dir = inside;
    ninja.view = limits.view;
  }
  ninja.argv.insert(ninja.argv.end(), arguments.begin(), arguments.end());
  ninja.head_limit = 256 * 1024;
  if (progress) ninja.on_output = NinjaSteps(progress);
  confine(ninja, limits, left.value_or(0));
  ChildOutcome outcome = run_child(ninja);
  if (outcome.exit_code == 127 && outcome.output.rfind("grader: cannot enter the build's view", 0) == 0)
    throw UsageError("the build of " + what + " could not be confined to its view of the files "
                     "(mount namespaces refused?):\n" + ending(outcome.output));
  if (outcome.timed_out)
    return {false, fmt::format("the build of {} ran out of time: stopped when the submission's "
                               "builds had taken {:.0f} s in all (--build-timeout), with every "
                               "compiler it had started",
                               what, *limits.seconds)};
  if (outcome.output.find("virtual memory exhausted") != std::string::npos ||
      outcome.output.find("out of memory allocating") != std::string::npos ||
      outcome.output.find("std::bad_alloc") != std::string::npos)
    return {false, fmt::format("a compiler ran out of memory: each may use {} GiB\n{}",
                               limits.address_space.value_or(0) >> 30,
                               first_error_lines(outcome.output))};
  if (outcome.signal == SIGXCPU || outcome.output.find("CPU time limit") != std::string::npos)
    return {false, fmt::format("a compiler ran out of time: stopped after {:.0f} s of CPU\n{}",
                               std::min(limits.seconds.value_or(0), max_cpu_per_compile),
                               first_error_lines(outcome.output))};
  if (outcome.exit_code == 0) return {true, {}};
  if (is_build_setup_failure(outcome.output))
    throw UsageError("ninja cannot build " + what + " in " + build_dir + ":\n" +
                     ending(outcome.output));
  return {false, first_error_lines(outcome.output)};
}

}  // namespace

void regenerate_build_file(const std::string& build_dir,
                           const std::optional<std::pair<uid_t, gid_t>>& run_as) {
  ChildRequest meson;
  meson.argv = {"ninja", "-C", build_dir, "build.ninja"};
  meson.run_as = run_as;
  ChildOutcome outcome = run_child(meson);
  if (outcome.exit_code != 0)
    throw UsageError("meson cannot bring " + build_dir + "/build.ninja up to date:\n" +
                     ending(outcome.output));
}

BuildResult build_target(const std::string& build_dir, const std::string& target,
                         const BuildProgress& progress, const BuildLimits& limits) {
  return run_ninja(build_dir, {target}, target, progress, limits);
}

BuildResult build_targets(const std::string& build_dir, const std::vector<std::string>& targets,
                          const BuildProgress& progress, const BuildLimits& limits) {
  std::vector<std::string> arguments = {"-k", "0"};
  arguments.insert(arguments.end(), targets.begin(), targets.end());
  return run_ninja(build_dir, arguments, "the test binaries", progress, limits);
}

}  // namespace grader
