// One grading session: builds and runs what the plan lists, one test at a
// time, reporting each result on the console and in the result files as
// soon as it is known, then the integrity report.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "build.hpp"
#include "console_report.hpp"
#include "grading_plan.hpp"
#include "options.hpp"
#include "result_files.hpp"
#include "sandbox.hpp"
#include "test_runner.hpp"

namespace grader {

class GradingSession {
 public:
  // Throws UsageError when a result file cannot be written.
  GradingSession(const Options& options, const GradingPlan& plan);

  // Builds every test binary of the plan in one ninja call per mode, before
  // the first is graded: one call keeps both cores busy across binaries.
  // Returns false when --build-only found something that does not build.
  bool build_all(const GradingPlan& plan);

  void grade(const ChapterPlan& chapter);

  // Prints the final score, completes the files; returns the exit status.
  int finish();

 private:
  // Runs the tests of a binary built and installed in every mode.
  void run_binary(const ChapterPlan& chapter, const TestBinary& binary,
                  const std::vector<ModeBinary>& runnables);
  // Whether the scan forbids running the student's code: it could not
  // complete, or it found something and --strict is on.
  bool refused_by_scan() const;
  void report_not_run(const ChapterPlan& chapter, const TestBinary& binary);
  // The binary built and installed in every mode; empty when it does not
  // build in one of them (reported as such).
  std::vector<ModeBinary> build_and_install(const ChapterPlan& chapter, const TestBinary& binary);
  // A hidden binary's reference (the same tests on the reference
  // solution), built and installed where only the grader can run it; or
  // why it could not be, in `problem`.
  std::string install_reference(const TestBinary& binary, std::string& problem);
  std::string read_outside_the_copy(const std::string& build_dir);
  // The limits of one build of the submission's code in `build_dir`: the
  // builder, the budget, and the view of the files it may see (with the
  // hidden tests, or without).
  BuildLimits limits_for(const std::string& build_dir, bool hidden);
  // Whether builds can be confined to their views here; says why not once.
  bool views_work();
  std::string shown_errors(const std::string& errors);
  // The result of a test that was not run, and why.
  TestResult not_run(const std::string& chapter, const TestBinary& binary,
                     const DeclaredTest& test, Status status, const std::string& why) const;
  // Adds a finding to the integrity report, once.
  void add_finding(Finding finding);
  bool any_selected(const TestBinary& binary) const;
  std::string how_to_grade_as_instructor() const;
  void report_not_compiling(const std::string& chapter, const TestBinary& binary,
                            const std::string& errors);
  void scan(const ChapterPlan& chapter);
  void remember_runtime_objects(const std::string& chapter, const std::string& build_dir);
  void record_chapter(const std::string& chapter);
  TestResult blank_result(const std::string& chapter, const TestBinary& binary) const;
  bool selected(const std::string& test_name) const;
  void add(TestResult result, bool print = true);
  void write_files();
  std::string tests_left() const;

  Options options_;
  std::string build_dir_;  // the first mode's
  std::vector<ModeBuild> builds_;
  std::vector<std::string> graded_chapters_;
  std::string source_root_;
  bool copied_ = false;  // a submission's copy: its build may read only the copy and /usr
  BuildLimits build_limits_;  // for a copy's build: its user and time
  bool confined_ = false;     // a copy's build runs in its view (build_view.hpp)
  std::string staging_;       // where views are put together
  std::map<std::pair<std::string, bool>, std::shared_ptr<const ViewPlan>> views_;
  std::string reference_build_dir_;  // the hidden tests' reference, root's alone
  RunSettings settings_;
  RunArea area_;
  GradingRun run_;
  std::vector<std::string> test_object_dirs_;
  std::vector<std::string> runtime_object_dirs_;  // every mode's build of the student's runtime
  bool write_failed_ = false;
  bool stopped_ = false;  // --first-failure, --stop-at-failure: a test lost points, the rest are not run
  ConsoleReport console_;
  bool records_grades_ = false;  // --grades, for a grade of every test of each chapter
  int tests_planned_ = 0;        // for the progress line: how many are left
  int tests_done_ = 0;
};

}  // namespace grader
