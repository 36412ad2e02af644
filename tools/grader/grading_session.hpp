// One grading session: builds and runs what the plan lists, one test at a
// time, reporting each result on the console and in the result files as
// soon as it is known, then the integrity report.
#pragma once

#include <memory>
#include <string>
#include <vector>

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

  void grade(const ChapterPlan& chapter);

  // Prints the final score, completes the files; returns the exit status.
  int finish();

 private:
  void grade_binary(const ChapterPlan& chapter, const TestBinary& binary);
  void report_not_compiling(const std::string& chapter, const TestBinary& binary,
                            const std::string& errors);
  void scan(const ChapterPlan& chapter);
  TestResult blank_result(const std::string& chapter, const TestBinary& binary) const;
  bool selected(const std::string& test_name) const;
  void add(TestResult result);
  void write_files();

  Options options_;
  std::string build_dir_;
  std::string source_root_;
  RunSettings settings_;
  RunArea area_;
  GradingRun run_;
  std::vector<std::string> test_object_dirs_;
  bool write_failed_ = false;
  bool stopped_ = false;  // --first-failure: a test lost points, the rest are not run
};

}  // namespace grader
