// The course grader: builds each chapter's tests against the student's (or
// the solution's) runtime, runs every test case in a process of its own and
// reports points. `grader --help` lists the options.
#include <fmt/format.h>

#include <exception>

#include "chapter_selection.hpp"
#include "child_process.hpp"
#include "console_report.hpp"
#include "current_chapter.hpp"
#include "grade_record.hpp"
#include "grading_plan.hpp"
#include "grading_session.hpp"
#include "manifest.hpp"
#include "test_catalog.hpp"
#include "options.hpp"
#include "usage_error.hpp"

namespace {

// The table instructors need: what each chapter's own tests are worth.
int print_points(const grader::Options& options) {
  grader::Manifest manifest = grader::read_manifest(options.builddir);
  fmt::print("| chapter | tests | points |\n| --- | ---: | ---: |\n");
  long total_tests = 0, total_points = 0;
  for (const std::string& chapter :
       grader::select_chapters(manifest.chapters, options.chapters)) {
    std::string dir = manifest.source_root + "/tests/" + chapter;
    auto sources = grader::test_sources_in(dir);
    auto model = grader::test_sources_in(dir + "/model");  // its model tests count too
    sources.insert(sources.end(), model.begin(), model.end());
    auto tests = grader::declared_tests(sources);
    long points = 0;
    for (const grader::DeclaredTest& test : tests) points += test.points;
    fmt::print("| {} | {} | {} |\n", chapter, tests.size(), points);
    total_tests += static_cast<long>(tests.size());
    total_points += points;
  }
  fmt::print("| all | {} | {} |\n", total_tests, total_points);
  return 0;
}

// A grade of the student's own work that names no chapter grades the
// chapter they are on, and says so first.
void choose_chapter(grader::Options& options) {
  if (!options.chapters.empty() || options.all || !grader::grades_kept(options)) return;
  grader::Manifest manifest = grader::read_manifest(options.builddir);
  grader::CurrentChapter current = grader::current_chapter(
      manifest.chapters, grader::read_grade_record(options.grades_file));
  if (current.chapter.empty()) return;
  options.chapters = {current.chapter};
  grader::print_line(current.why);
}

int grade(grader::Options options) {
  choose_chapter(options);
  grader::GradingPlan plan = options.binaries.empty() ? grader::plan_from_manifest(options)
                                                      : grader::plan_from_binaries(options);
  grader::GradingSession session(options, plan);
  bool built = session.build_all(plan);
  if (options.build_only) return built ? 0 : 1;
  for (const grader::ChapterPlan& chapter : plan.chapters) session.grade(chapter);
  return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    grader::Options options = grader::parse_command_line(argc, argv);
    if (options.points) return print_points(options);
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
