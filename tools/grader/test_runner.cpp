// Running test processes; see test_runner.hpp.
#include "test_runner.hpp"

#include <fmt/format.h>

#include "child_process.hpp"
#include "time_budget.hpp"
#include "verdict.hpp"

namespace grader {

namespace {

struct SingleRun {
  Verdict verdict;
  std::string output;
  double seconds = 0;
};

SingleRun run_once(const std::string& binary, const ListedTest& test, const RunSettings& settings) {
  std::string token = make_token();
  double budget = time_budget(test.declared_timeout, settings.sanitizer, settings.timeout);
  ChildRequest request;
  request.argv = {binary, "--run", test.name};
  request.environment = sanitizer_environment(settings.sanitizer);
  request.environment.emplace_back("GRADER_TOKEN", token);
  request.result_fd_variable = "GRADER_RESULT_FD";
  request.timeout = std::chrono::duration<double>(budget);
  ChildOutcome outcome = run_child(request);
  return {judge(outcome, token, settings.sanitizer, budget), outcome.output, outcome.seconds};
}

}  // namespace

TestResult run_test(const std::string& binary, const ListedTest& test,
                    const RunSettings& settings) {
  TestResult result;
  result.name = test.name;
  result.points_possible = test.points;
  result.status = Status::pass;
  std::optional<SingleRun> first_failure, last;
  for (int i = 0; i < settings.repeat; ++i) {
    SingleRun run = run_once(binary, test, settings);
    ++result.runs;
    result.seconds += run.seconds;
    if (run.verdict.status != Status::pass) {
      ++result.failed_runs;
      if (!first_failure) first_failure = run;
    }
    last = run;
  }
  // A failing test is shown through its first failure; a passing one
  // through its last run.
  const SingleRun& shown = first_failure ? *first_failure : *last;
  result.status = shown.verdict.status;
  result.message = shown.verdict.message;
  result.output = shown.output;
  if (first_failure && settings.repeat > 1)
    result.message = fmt::format("failed {} of {} runs; the first failure:\n{}", result.failed_runs,
                                 result.runs, result.message);
  result.points_earned = result.status == Status::pass ? test.points : 0;
  return result;
}

std::optional<std::vector<ListedTest>> list_tests(const std::string& binary,
                                                  const RunSettings& settings,
                                                  std::string& problem) {
  ChildRequest request;
  request.argv = {binary, "--list"};
  request.environment = sanitizer_environment(settings.sanitizer);
  request.timeout =
      std::chrono::duration<double>(time_budget(60, settings.sanitizer, std::nullopt));
  ChildOutcome outcome = run_child(request);
  std::optional<std::vector<ListedTest>> tests;
  if (!outcome.timed_out && outcome.exit_code == 0) tests = parse_listing(outcome.output);
  if (!tests)
    problem = fmt::format("{} --list did not work{}:\n{}", binary,
                          outcome.timed_out ? " (timed out)" : "", last_lines(outcome.output, 15));
  return tests;
}

}  // namespace grader
