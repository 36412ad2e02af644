// The course grader: builds each chapter's tests against the student's (or
// the solution's) runtime, runs every test case in a process of its own and
// reports points. `grader --help` lists the options.
#include <fmt/format.h>

#include <exception>

#include "child_process.hpp"
#include "grading_plan.hpp"
#include "grading_session.hpp"
#include "options.hpp"
#include "usage_error.hpp"

namespace {

int grade(const grader::Options& options) {
  grader::GradingPlan plan = options.binaries.empty() ? grader::plan_from_manifest(options)
                                                      : grader::plan_from_binaries(options);
  grader::GradingSession session(options, plan);
  for (const grader::ChapterPlan& chapter : plan.chapters) session.grade(chapter);
  return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    grader::Options options = grader::parse_command_line(argc, argv);
    grader::install_process_guards();
    return grade(options);
  } catch (const grader::UsageError& e) {
    fmt::print(stderr, "grader: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "grader: cannot grade: {}\n", e.what());
    return 2;
  }
}
