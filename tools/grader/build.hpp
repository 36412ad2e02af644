// Building what is graded: a sanitizer build directory when one is asked
// for, every test binary of a run in one ninja call first (so that both
// cores compile), then each with its own call, so that one chapter that
// does not compile cannot hide the others and its errors are its own.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "build_view.hpp"
#include "sanitizer.hpp"

namespace grader {

// The build directory to use: `builddir` itself, or `builddir-thread` /
// `builddir-address`, configured with meson first if it does not exist.
// Throws UsageError when meson setup fails.
std::string prepare_build_dir(const std::string& builddir, const std::string& source_root,
                              Sanitizer sanitizer);

// How a submission's build is confined: run as `run_as` (the sandbox's
// builder, sandbox.hpp), so that the compiler can read nothing that only
// root may; every build of the submission (each target, each mode, the
// hidden tests) shares one budget of `seconds` from `start`, after which a
// build is stopped with everything it started, and no other begins; each
// compiler gets at most min(seconds, 600) s of CPU and `address_space`
// bytes of memory; and, with `view`, the build runs in that view of the
// file system (build_view.hpp), which must have been made from an
// up-to-date build.ninja (regenerate_build_file). Empty for the course's
// own build.
struct BuildLimits {
  std::optional<std::pair<uid_t, gid_t>> run_as;
  std::shared_ptr<const ViewPlan> view;
  std::optional<double> seconds;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::optional<unsigned long long> address_space;
};

// The most memory (address space) one compiler or linker process of a
// submission's build may have: the largest honest one, a chapter's tests
// under AddressSanitizer, needs well under this; an #include of /dev/zero
// stops here instead of taking the machine's memory.
inline constexpr unsigned long long build_address_space = 8ull << 30;

struct BuildResult {
  bool ok = false;
  std::string errors;  // the first compiler error lines, when not ok
};

// Called as ninja reports each step: step `step` of `steps`.
using BuildProgress = std::function<void(int step, int steps)>;

// Runs meson again where build.ninja is older than what it was made from
// (a new list of hidden tests), as `run_as`: outside any view, which shows
// meson too little of the course to read it. Only the course's own build
// files run. Throws UsageError when meson fails.
void regenerate_build_file(const std::string& build_dir,
                           const std::optional<std::pair<uid_t, gid_t>>& run_as);

// Throws UsageError when the build directory itself is broken.
BuildResult build_target(const std::string& build_dir, const std::string& target,
                         const BuildProgress& progress = {}, const BuildLimits& limits = {});

// All of `targets` in one ninja call that goes on past a failed compile
// (-k 0): what fails is built, and reported, again by build_target.
BuildResult build_targets(const std::string& build_dir, const std::vector<std::string>& targets,
                          const BuildProgress& progress = {}, const BuildLimits& limits = {});

}  // namespace grader
