// Grading, test by test; see grading_session.hpp.
#include "grading_session.hpp"

#include <system_error>

#include "build.hpp"
#include "console_report.hpp"
#include "score.hpp"

namespace grader {

GradingSession::GradingSession(const Options& options, std::string build_dir)
    : options_(options), build_dir_(std::move(build_dir)) {
  settings_ = {options.sanitizer, options.timeout, options.repeat};
  run_.flavour = !options.binaries.empty() ? "binaries"
                 : options.solutions       ? "solutions"
                                           : "chapters";
  run_.sanitizer = options.sanitizer;
  run_.repeat = options.repeat;
  write_files();  // so that even a run killed at once leaves valid files
}

void GradingSession::grade(const ChapterPlan& chapter) {
  for (const TestBinary& binary : chapter.binaries) grade_binary(chapter.chapter, binary);
  print_chapter_score(chapter.chapter, run_.results);
}

int GradingSession::finish() {
  run_.complete = true;
  write_files();
  bool full = full_marks(run_.results);
  if (run_.results.empty()) print_progress("no tests were graded (check --filter)");
  print_final_score(run_.results);
  return full ? 0 : 1;
}

void GradingSession::grade_binary(const std::string& chapter, const TestBinary& binary) {
  if (!binary.target.empty()) {
    print_progress("building " + binary.target);
    // Built every time: a binary left by an earlier successful build must
    // not be graded when the code no longer compiles.
    BuildResult built = build_target(build_dir_, binary.target);
    if (!built.ok) return report_not_compiling(chapter, binary, built.errors);
  }
  std::string problem;
  auto tests = tests_of(binary, problem);
  if (!tests) {
    TestResult result = blank_result(chapter, binary);
    result.name = "(the tests of " + binary.path + ")";
    result.message = problem;
    return add(result);
  }
  for (const ListedTest& test : *tests) {
    if (!selected(test.name)) continue;
    TestResult result = run_test(binary.path, test, settings_);
    TestResult owner = blank_result(chapter, binary);
    result.chapter = owner.chapter;
    result.test_chapter = owner.test_chapter;
    result.regression = owner.regression;
    result.counted = owner.counted;
    if (!result.counted) result.points_earned = 0;
    add(result);
  }
}

// Student code that crashes while listing still gets a line per test, from
// the solution's list, each then failing on its own.
std::optional<std::vector<ListedTest>> GradingSession::tests_of(const TestBinary& binary,
                                                                std::string& problem) {
  auto tests = list_tests(binary.path, settings_, problem);
  if (!tests) {
    if (auto from_solution = tests_from_solution(binary)) tests = from_solution;
  }
  return tests;
}

std::optional<std::vector<ListedTest>> GradingSession::tests_from_solution(
    const TestBinary& binary) {
  if (binary.listing_target.empty()) return std::nullopt;
  if (!build_target(build_dir_, binary.listing_target).ok) return std::nullopt;
  std::string ignored;
  return list_tests(build_dir_ + "/" + binary.listing_target, settings_, ignored);
}

void GradingSession::report_not_compiling(const std::string& chapter, const TestBinary& binary,
                                          const std::string& errors) {
  TestResult result = blank_result(chapter, binary);
  result.status = Status::does_not_compile;
  result.message = errors;
  auto tests = tests_from_solution(binary);
  if (!tests) {
    result.name = "(every test of " + binary.target + ")";
    return add(result);
  }
  for (const ListedTest& test : *tests) {
    if (!selected(test.name)) continue;
    result.name = test.name;
    result.points_possible = test.points;
    add(result);
  }
}

TestResult GradingSession::blank_result(const std::string& chapter,
                                        const TestBinary& binary) const {
  TestResult result;
  result.chapter = chapter;
  result.test_chapter = binary.test_chapter;
  result.regression = binary.regression;
  result.counted = !binary.regression || options_.count_regressions;
  result.status = Status::error;
  return result;
}

bool GradingSession::selected(const std::string& test_name) const {
  return test_name.find(options_.filter) != std::string::npos;
}

void GradingSession::add(TestResult result) {
  if (!result.counted) result.points_earned = 0;
  print_test(result);
  run_.results.push_back(std::move(result));
  write_files();
}

void GradingSession::write_files() {
  try {
    if (!options_.json_file.empty()) replace_file(options_.json_file, grader_json(run_));
    if (!options_.gradescope_file.empty())
      replace_file(options_.gradescope_file, gradescope_json(run_));
  } catch (const std::system_error& e) {
    print_progress(e.what());
  }
}

}  // namespace grader
