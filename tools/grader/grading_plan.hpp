// What is going to be graded: for each chapter, the test binaries to build
// and run. Grading chapter N runs chapter N's own tests against chapter N's
// runtime (its score) and every earlier chapter's tests against the same
// runtime (regressions).
#pragma once

#include <string>
#include <vector>

#include "options.hpp"

namespace grader {

struct TestBinary {
  std::string test_chapter;  // whose tests these are
  bool regression = false;
  std::string path;    // the file to run
  std::string target;  // its ninja target; empty when given with --binary
  // The same tests built against the solution: where the test list comes
  // from when `target` does not compile. Empty when there is none.
  std::string listing_target;
};

struct ChapterPlan {
  std::string chapter;
  std::vector<TestBinary> binaries;
};

struct GradingPlan {
  std::string build_dir;
  std::vector<ChapterPlan> chapters;
};

// From the manifest in --builddir, configuring a sanitizer build directory
// if needed. Throws UsageError.
GradingPlan plan_from_manifest(const Options& options);

// One "chapter" per --binary, named after the file.
GradingPlan plan_from_binaries(const Options& options);

}  // namespace grader
