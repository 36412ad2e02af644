// One grading session: builds and runs what the plan lists, one test at a
// time, reporting each result on the console and in the result files as
// soon as it is known.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "grading_plan.hpp"
#include "options.hpp"
#include "protocol.hpp"
#include "result_files.hpp"
#include "test_runner.hpp"

namespace grader {

class GradingSession {
 public:
  GradingSession(const Options& options, std::string build_dir);

  void grade(const ChapterPlan& chapter);

  // Prints the final score, completes the files; returns the exit status.
  int finish();

 private:
  void grade_binary(const std::string& chapter, const TestBinary& binary);
  void report_not_compiling(const std::string& chapter, const TestBinary& binary,
                            const std::string& errors);
  std::optional<std::vector<ListedTest>> tests_of(const TestBinary& binary, std::string& problem);
  std::optional<std::vector<ListedTest>> tests_from_solution(const TestBinary& binary);
  TestResult blank_result(const std::string& chapter, const TestBinary& binary) const;
  bool selected(const std::string& test_name) const;
  void add(TestResult result);
  void write_files();

  Options options_;
  std::string build_dir_;
  RunSettings settings_;
  GradingRun run_;
};

}  // namespace grader
