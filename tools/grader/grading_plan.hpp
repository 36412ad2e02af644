// What is going to be graded: for each chapter, the test binaries to build
// and run, and the tests each must hold, read from the test sources.
// Grading chapter N runs chapter N's own tests against chapter N's runtime
// (its score), the instructor's hidden tests of chapter N if any, and every
// earlier chapter's tests against the same runtime (regressions).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "options.hpp"
#include "sandbox.hpp"
#include "submission.hpp"
#include "test_catalog.hpp"

namespace grader {

struct TestBinary {
  std::string test_chapter;  // whose tests these are
  bool regression = false;
  bool hidden = false;
  std::string path;    // the file to run
  std::string target;  // its ninja target; empty when given with --binary
  // Hidden tests: the same tests built against the reference solution,
  // whose observations they are judged by (reference_run.hpp).
  std::string reference_target;
  std::vector<DeclaredTest> tests;
};

struct ChapterPlan {
  std::string chapter;
  std::vector<TestBinary> binaries;
  // Where the code under test comes from, for the integrity scan (its
  // objects are found where each mode builds them).
  std::vector<std::string> student_files;
  // A student's own grade while the chapter's stubs remain: the earlier
  // chapters' tests (not counted then, and folded into one line) are
  // neither built nor run, so a first grade builds the chapter's own tests
  // alone. How many tests that leaves out, and the first file with a stub.
  int deferred_regressions = 0;
  std::string stub_file;
};

// Where the tests of one mode (plain, or under a sanitizer) are built.
struct ModeBuild {
  Sanitizer mode = Sanitizer::none;
  std::string build_dir;  // empty for --binary
};

struct GradingPlan {
  std::string build_dir;  // the first mode's: where binary paths and objects are
  std::vector<ModeBuild> builds;  // one per mode, in the order they run
  std::string source_root;  // of what is built: the course, or its copy
  std::vector<ChapterPlan> chapters;
  // Filled in for --submission and --hidden, which grade a pristine copy.
  bool copied = false;
  PreparedCopy copy;
  // The builder of the copy, a user id of this run's own while the plan lives.
  std::shared_ptr<RunUser> builder;
};

// From the manifest in --builddir: the build directory itself, a sanitizer
// build directory next to it (one per mode), or a pristine copy for
// --submission and --hidden. Throws UsageError.
GradingPlan plan_from_manifest(const Options& options);

// One "chapter" per --binary, named after the file, its tests read from
// --sources.
GradingPlan plan_from_binaries(const Options& options);

}  // namespace grader
