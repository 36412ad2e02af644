// Grading, test by test; see grading_session.hpp.
#include "grading_session.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>

#include "build.hpp"
#include "build_view.hpp"
#include "child_process.hpp"
#include "compiler_reads.hpp"
#include "grade_record.hpp"
#include "integrity.hpp"
#include "manifest.hpp"
#include "reference_run.hpp"
#include "score.hpp"
#include "usage_error.hpp"

namespace grader {

namespace {

// The chapters as scripts/grade takes them: "2", "1-3", or "1 3".
std::string chapters_argument(const std::vector<std::string>& chapters) {
  std::vector<int> numbers;
  for (const std::string& chapter : chapters) numbers.push_back(std::stoi(chapter_number(chapter)));
  bool contiguous = numbers.back() - numbers.front() + 1 == static_cast<int>(numbers.size());
  if (numbers.size() > 1 && contiguous)
    return fmt::format("{}-{}", numbers.front(), numbers.back());
  return fmt::format("{}", fmt::join(numbers, " "));
}

// The student's runtime library of `chapter`, as meson names its target.
std::string runtime_target(const std::string& chapter) {
  return fmt::format("chapters/{}/librt-chapters-{}.a", chapter, chapter_number(chapter));
}

}  // namespace

GradingSession::GradingSession(const Options& options, const GradingPlan& plan)
    : options_(options),
      build_dir_(plan.build_dir),
      builds_(plan.builds),
      source_root_(plan.source_root),
      copied_(plan.copied),
      area_(options.sandbox,
            plan.builder ? std::optional<uid_t>(plan.builder->uid()) : std::nullopt),
      console_(ConsoleSettings{options.every_test, options.brief}) {
  // A chapter's grade is all its tests, run to the end.
  records_grades_ = grades_kept(options) && options.filter.empty() && !options.first_failure &&
                    !options.stop_at_failure;
  for (const ChapterPlan& chapter : plan.chapters)
    for (const TestBinary& binary : chapter.binaries)
      for (const DeclaredTest& test : binary.tests) tests_planned_ += selected(test.name);
  // The mutation check (--first-failure) asks only whether a test failed.
  settings_ = {options.modes.front(), options.timeout, options.repeat, !options.first_failure};
  for (const std::string& warning : area_.warnings()) print_progress("warning: " + warning);
  if (copied_) {
    build_limits_.seconds = options.build_timeout;
    build_limits_.start = std::chrono::steady_clock::now();
    build_limits_.address_space = build_address_space;
  }
  if (copied_ && plan.copy.builder) {
    build_limits_.run_as = {{plan.copy.builder_uid, plan.copy.builder_uid}};
    confined_ = views_work();
  }
  reference_build_dir_ = plan.copy.reference_build_dir;
  run_.flavour = !options.binaries.empty() ? "binaries"
                 : options.solutions       ? "solutions"
                                           : "chapters";
  run_.modes = options.modes;
  run_.repeat = options.repeat;
  run_.sandbox = options.sandbox;
  run_.strict = options.strict;
  if (plan.copied) {
    run_.other_changes = plan.copy.other_changes;
    run_.missing_files = plan.copy.missing;
  }
  // So that even a run killed at once leaves valid files; a path that
  // cannot be written stops the grader here, before any test runs.
  try {
    if (!options_.json_file.empty()) replace_file(options_.json_file, grader_json(run_));
    if (!options_.gradescope_file.empty())
      replace_file(options_.gradescope_file, gradescope_json(run_));
  } catch (const std::system_error& e) {
    throw UsageError(e.what());
  }
}

bool GradingSession::build_all(const GradingPlan& plan) {
  // --first-failure stops at the first failing test: the binaries after it
  // need not be built at all.
  if (options_.first_failure) return true;
  std::vector<std::string> targets;
  for (const ChapterPlan& chapter : plan.chapters)
    for (const TestBinary& binary : chapter.binaries)
      if (!binary.target.empty() && any_selected(binary) &&
          std::find(targets.begin(), targets.end(), binary.target) == targets.end())
        targets.push_back(binary.target);
  if (targets.empty() || (targets.size() < 2 && !options_.build_only)) return true;
  // The hidden tests, built against the student's runtime, in a view of
  // their own: the visible tests' builds never see them.
  std::vector<std::string> hidden, references;
  for (const ChapterPlan& chapter : plan.chapters)
    for (const TestBinary& binary : chapter.binaries) {
      if (!binary.hidden || !any_selected(binary)) continue;
      std::erase(targets, binary.target);
      hidden.push_back(binary.target);
      references.push_back(binary.reference_target);
    }
  bool built = true;
  auto build_these = [&](const std::string& dir, const std::vector<std::string>& these,
                         const std::string& mode, const BuildLimits& limits) {
    if (these.empty()) return;
    print_progress(fmt::format("building {} test binar{}{}", these.size(),
                               these.size() == 1 ? "y" : "ies", mode));
    // What fails here is built again, alone, by build_and_install, which
    // reports its errors under its own chapter.
    built = build_targets(dir, these, [&](int step, int steps) {
      show_status(fmt::format("building{}, step {}/{}, then {}", mode, step, steps, tests_left()));
    }, limits).ok && built;
  };
  for (const ModeBuild& build : builds_) {
    std::string mode = builds_.size() > 1 ? " (" + mode_name(build.mode) + ")" : "";
    build_these(build.build_dir, targets, mode, limits_for(build.build_dir, false));
    build_these(build.build_dir, hidden, mode + " (hidden tests)", limits_for(build.build_dir, true));
  }
  // The hidden tests' references run plain only, and hold no student code.
  build_these(reference_build_dir_.empty() ? build_dir_ : reference_build_dir_, references,
              " (the hidden tests' reference)", {});
  return built;
}

bool GradingSession::views_work() {
  // The mechanism alone: a view of the system, entered as the builder. A
  // view of the copy that cannot be entered later stops the grade.
  try {
    staging_ = view_staging_folder();
    BuildView system;
    system.binds = {{"/usr", false}, {"/etc", false}};
    ChildRequest probe;
    probe.argv = {"true"};
    probe.run_as = build_limits_.run_as;
    probe.view = std::make_shared<ViewPlan>(system, staging_);
    if (run_child(probe).exit_code == 0) return true;
  } catch (const std::exception&) {
  }
  print_progress("warning: root cannot give the build a view of its own here (mount namespaces "
                 "refused: a container without CAP_SYS_ADMIN?): the student's build can read "
                 "all of the copy, the reference solutions with it, and is checked only "
                 "afterwards by the files the compiler says it read");
  return false;
}

BuildLimits GradingSession::limits_for(const std::string& build_dir, bool hidden) {
  BuildLimits limits = build_limits_;
  if (!confined_) return limits;
  auto key = std::make_pair(build_dir, hidden);
  auto found = views_.find(key);
  if (found == views_.end()) {
    // The view shows what build.ninja names: it must be up to date first.
    regenerate_build_file(build_dir, build_limits_.run_as);
    BuildView view;
    try {
      view = submission_build_view(source_root_, build_dir, hidden);
    } catch (const std::exception& e) {
      throw UsageError(std::string("cannot make the build's view of the files: ") + e.what());
    }
    found = views_.emplace(key, std::make_shared<ViewPlan>(view, staging_)).first;
  }
  limits.view = found->second;
  return limits;
}

void GradingSession::grade(const ChapterPlan& chapter) {
  graded_chapters_.push_back(chapter.chapter);
  if (chapter.student_files.empty()) {
    // The course's own code (the solutions, a mutant): built binary by
    // binary, so that --first-failure builds no more than it must.
    for (const TestBinary& binary : chapter.binaries)
      if (!stopped_ && any_selected(binary))
        run_binary(chapter, binary, build_and_install(chapter, binary));
  } else {
    // A student's code is scanned before any of it runs, so that --strict
    // never runs code the scan found something in.
    std::vector<std::vector<ModeBinary>> built;
    for (const TestBinary& binary : chapter.binaries)
      built.push_back(any_selected(binary) ? build_and_install(chapter, binary)
                                           : std::vector<ModeBinary>{});
    scan(chapter);
    for (std::size_t i = 0; i < chapter.binaries.size() && !stopped_; ++i) {
      if (built[i].empty()) continue;  // not selected, or reported as not compiling
      if (refused_by_scan())
        report_not_run(chapter, chapter.binaries[i]);
      else
        run_binary(chapter, chapter.binaries[i], built[i]);
    }
  }
  if (chapter.deferred_regressions > 0)
    console_.regressions_deferred(chapter.deferred_regressions, chapter.stub_file);
  console_.chapter_done(chapter.chapter, run_.results);
  if (records_grades_ && !stopped_) record_chapter(chapter.chapter);
}

int GradingSession::finish() {
  run_.complete = true;
  write_files();
  bool full = full_marks(run_.results);
  if (run_.results.empty()) print_progress("no tests were graded (check --filter)");
  print_block(integrity_summary(run_));
  std::string note = !run_.scan_error.empty() ? " (not scored: the integrity scan could not complete)"
                     : zeroed_by_strict(run_) ? " (--strict: the integrity report is not empty)"
                                              : "";
  std::string advice = how_to_grade_as_instructor();
  if (!advice.empty()) print_line(advice);
  print_final_score(final_score(run_), note);
  if (write_failed_) return 2;
  return full && !zeroed_by_strict(run_) && run_.scan_error.empty() ? 0 : 1;
}

std::vector<ModeBinary> GradingSession::build_and_install(const ChapterPlan& chapter,
                                                          const TestBinary& binary) {
  std::vector<ModeBinary> runnables;
  for (const ModeBuild& build : builds_) {
    bool several = builds_.size() > 1;
    std::string mode = several ? mode_phrase(build.mode) + ": " : "";
    std::string path = binary.target.empty() ? binary.path : build.build_dir + "/" + binary.target;
    if (!binary.target.empty() && binary.hidden && confined_) {
      // The student's runtime first, where the hidden tests are not: their
      // view shows it read-only.
      BuildResult runtime = build_target(build.build_dir, runtime_target(chapter.chapter), {},
                                         limits_for(build.build_dir, false));
      if (!runtime.ok) {
        report_not_compiling(chapter.chapter, binary, mode + shown_errors(runtime.errors));
        return {};
      }
    }
    if (!binary.target.empty()) {
      print_progress("building " + binary.target + (several ? " " + mode_phrase(build.mode) : ""));
      // Built every time: a binary left by an earlier successful build must
      // not be graded when the code no longer compiles.
      BuildResult built = build_target(build.build_dir, binary.target, [&](int step, int steps) {
        show_status(fmt::format("{}: building, step {}/{}, then {}: {}", chapter.chapter, step,
                                steps, tests_left(), binary.target));
      }, limits_for(build.build_dir, binary.hidden));
      if (!built.ok) {
        report_not_compiling(chapter.chapter, binary, mode + shown_errors(built.errors));
        return {};
      }
      std::string refused = read_outside_the_copy(build.build_dir);
      if (!refused.empty()) {
        report_not_compiling(chapter.chapter, binary, mode + refused);
        return {};
      }
      // The chapter's own tests include the student's headers like every
      // other: their objects (the first mode's) are enough to scan.
      if (!binary.regression && runnables.empty()) test_object_dirs_.push_back(path + ".p");
      // The student's runtime as this mode built it: a sanitizer build's
      // objects may call the sanitizer where the plain build's do not.
      remember_runtime_objects(chapter.chapter, build.build_dir);
    }
    try {
      runnables.push_back({build.mode, area_.install(path)});
    } catch (const std::filesystem::filesystem_error& e) {
      report_not_compiling(chapter.chapter, binary,
                           mode + "cannot read the test binary " + path + ": " + e.what());
      return {};
    }
  }
  return runnables;
}

bool GradingSession::refused_by_scan() const {
  return !run_.scan_error.empty() || (options_.strict && !run_.integrity.empty());
}

void GradingSession::report_not_run(const ChapterPlan& chapter, const TestBinary& binary) {
  std::string why = !run_.scan_error.empty()
                        ? "not run: the integrity scan could not complete (" + run_.scan_error + ")"
                        : "not run: the integrity report is not empty, and --strict scores such a "
                          "submission 0 (see the findings)";
  for (const DeclaredTest& test : binary.tests)
    if (selected(test.name)) add(not_run(chapter.chapter, binary, test, Status::error, why));
}

void GradingSession::run_binary(const ChapterPlan& chapter, const TestBinary& binary,
                                const std::vector<ModeBinary>& runnables) {
  if (runnables.empty()) return;  // reported as not compiling
  std::string reference_problem;
  std::string reference =
      binary.hidden ? install_reference(binary, reference_problem) : std::string();
  for (const DeclaredTest& test : binary.tests) {
    if (!selected(test.name)) continue;
    show_status(fmt::format("{}: test {}/{}, {}: {}", chapter.chapter, tests_done_ + 1,
                            tests_planned_, tests_left(), test.name));
    std::optional<Reference> expected;
    if (binary.hidden) {
      expected = reference_problem.empty() ? take_reference(reference, test, settings_, area_)
                                           : Reference{{}, {}, reference_problem};
      if (!expected->problem.empty()) {
        add(not_run(chapter.chapter, binary, test, Status::error, expected->problem));
        continue;
      }
      if (expected->observations.empty())
        print_progress(fmt::format("note: the hidden test '{}' observes nothing (OBSERVE), so its "
                                   "verdict rests on its record, which code that runs before "
                                   "main can forge (instructors.md, Hidden tests)",
                                   test.name));
    }
    TestResult result =
        run_test_in_modes(runnables, test, settings_, area_, expected ? &*expected : nullptr);
    TestResult owner = blank_result(chapter.chapter, binary);
    result.chapter = owner.chapter;
    result.test_chapter = owner.test_chapter;
    result.regression = owner.regression;
    result.hidden = owner.hidden;
    result.counted = owner.counted;
    add(result);
    if (options_.first_failure && result.status != Status::pass) {
      stopped_ = true;
      return;
    }
    if (options_.stop_at_failure && result.status != Status::pass && result.status != Status::not_started) {
      stopped_ = true;
      print_line(fmt::format("stopped at the first failing test ({}): the tests after it were not run; "
                             "grade without --watch for the whole chapter",
                             result.name));
      return;
    }
  }
}

std::string GradingSession::install_reference(const TestBinary& binary, std::string& problem) {
  const std::string& build_dir = reference_build_dir_.empty() ? builds_.front().build_dir
                                                              : reference_build_dir_;
  print_progress("building " + binary.reference_target + " (the reference for the hidden tests)");
  // The course's code alone: no builder, no view, no share of the budget.
  BuildResult built = build_target(build_dir, binary.reference_target, {},
                                   reference_build_dir_.empty() ? build_limits_ : BuildLimits{});
  if (!built.ok) {
    problem = "the hidden tests do not build against the reference solution, so they have "
              "nothing to be compared with: the instructor should fix them.\n" + built.errors;
    return {};
  }
  try {
    return area_.install(build_dir + "/" + binary.reference_target, RunArea::grader_only);
  } catch (const std::filesystem::filesystem_error& e) {
    problem = std::string("cannot read the hidden tests' reference binary: ") + e.what();
    return {};
  }
}

// A failed build's errors, unless they quote the reference solution: a
// failed compile leaves no dependency list to check, and an error inside
// an #include'd solution file would print its lines.
std::string GradingSession::shown_errors(const std::string& errors) {
  if (!copied_) return errors;
  for (std::size_t at = errors.find("solutions/"); at != std::string::npos;
       at = errors.find("solutions/", at + 1)) {
    bool chapter = at + 13 <= errors.size() && std::isdigit(static_cast<unsigned char>(errors[at + 10])) &&
                   std::isdigit(static_cast<unsigned char>(errors[at + 11])) && errors[at + 12] == '-';
    if (chapter) {
      add_finding({"the build", "asked the compiler for a file of the reference solution or the hidden tests"});
      return "the compiler's errors name a file of the reference solution (an #include by a "
             "relative path?), so they are not shown";
    }
  }
  return errors;
}

// Why a submission's build is refused before any test runs: the compiler
// read a file outside the copy and the system's headers (compiler_reads.hpp).
// Empty when it did not, or when the course itself is graded.
std::string GradingSession::read_outside_the_copy(const std::string& build_dir) {
  if (!copied_) return {};
  std::vector<std::string> outside;
  try {
    outside = files_read_outside(build_dir, {source_root_});
  } catch (const std::exception& e) {
    return std::string("cannot tell which files the compiler read, so nothing is run: ") +
           e.what();
  }
  if (!outside.empty()) {
    for (const std::string& file : outside)
      add_finding({file, "read by the compiler, outside the course's copy and /usr"});
    return fmt::format("the build read {} file{} outside the course's copy and the system's "
                       "headers (an #include of an absolute path?), so nothing is run: {}",
                       outside.size(), outside.size() == 1 ? "" : "s", fmt::join(outside, ", "));
  }
  std::vector<std::string> answers;
  try {
    answers = files_read_from_the_answers(build_dir, source_root_);
  } catch (const std::exception& e) {
    return std::string("cannot tell which files the compiler read, so nothing is run: ") +
           e.what();
  }
  if (answers.empty()) return {};
  for (const std::string& read : answers)
    add_finding({read, "read by the compiler: the reference solution or the hidden tests"});
  return fmt::format("the student's code read {} file{} of the reference solution or the hidden "
                     "tests (an #include by a relative path?), so nothing is run: {}",
                     answers.size(), answers.size() == 1 ? "" : "s", fmt::join(answers, ", "));
}

void GradingSession::add_finding(Finding finding) {
  auto same = [&](const Finding& f) { return f.where == finding.where && f.what == finding.what; };
  if (std::none_of(run_.integrity.begin(), run_.integrity.end(), same))
    run_.integrity.push_back(std::move(finding));
}

TestResult GradingSession::not_run(const std::string& chapter, const TestBinary& binary,
                                   const DeclaredTest& test, Status status,
                                   const std::string& why) const {
  TestResult result = blank_result(chapter, binary);
  result.name = test.name;
  result.points_possible = test.points;
  result.status = status;
  result.message = why;
  return result;
}

void GradingSession::report_not_compiling(const std::string& chapter, const TestBinary& binary,
                                          const std::string& errors) {
  std::vector<TestResult> results;
  for (const DeclaredTest& test : binary.tests) {
    if (!selected(test.name)) continue;
    results.push_back(not_run(chapter, binary, test, Status::does_not_compile, errors));
    add(results.back(), false);
  }
  // One line for the binary: its errors are the same for every test.
  console_.not_compiling(results, binary.target.empty() ? binary.path : binary.target);
}

// The integrity scan of the code under test (there is none to scan when
// grading the solutions or a --binary).
void GradingSession::scan(const ChapterPlan& chapter) {
  if (chapter.student_files.empty()) return;
  std::vector<Finding> found;
  try {
    found = scan_sources(chapter.student_files);
    std::vector<Finding> in_objects = scan_objects(runtime_object_dirs_, test_object_dirs_);
    found.insert(found.end(), in_objects.begin(), in_objects.end());
    if (copied_) {
      // What the compiler saw and wrote (a copy's build keeps it): every
      // mode's assembly, one mode's preprocessed units.
      std::vector<std::string> dirs = runtime_object_dirs_;
      dirs.insert(dirs.end(), test_object_dirs_.begin(), test_object_dirs_.end());
      std::vector<std::string> preprocessed = test_object_dirs_;
      if (!runtime_object_dirs_.empty()) preprocessed.push_back(runtime_object_dirs_.front());
      std::vector<Finding> compiled = scan_compiler_output(dirs, preprocessed, chapter.student_files);
      found.insert(found.end(), compiled.begin(), compiled.end());
    }
  } catch (const std::exception& e) {
    // Fail closed: what could not be scanned is not scored.
    if (run_.scan_error.empty()) run_.scan_error = e.what();
  }
  test_object_dirs_.clear();
  runtime_object_dirs_.clear();
  for (Finding& f : found) {
    // Shown relative to the course (or its copy) and the build directory.
    for (const std::string& root : {source_root_, build_dir_})
      if (!root.empty() && f.where.rfind(root + "/", 0) == 0) f.where.erase(0, root.size() + 1);
    add_finding(std::move(f));
  }
  write_files();
}

// Where meson builds the student's runtime libraries of `chapter` in one
// mode (the ordinary one and the model tests'): only the student's files.
void GradingSession::remember_runtime_objects(const std::string& chapter, const std::string& build_dir) {
  if (build_dir.empty()) return;
  std::string dir = build_dir + "/chapters/" + chapter;
  if (std::find(runtime_object_dirs_.begin(), runtime_object_dirs_.end(), dir) == runtime_object_dirs_.end())
    runtime_object_dirs_.push_back(dir);
}

TestResult GradingSession::blank_result(const std::string& chapter,
                                        const TestBinary& binary) const {
  TestResult result;
  result.chapter = chapter;
  result.test_chapter = binary.test_chapter;
  result.regression = binary.regression;
  result.hidden = binary.hidden;
  result.counted = !binary.regression || options_.count_regressions;
  result.status = Status::error;
  return result;
}

bool GradingSession::selected(const std::string& test_name) const {
  return test_name.find(options_.filter) != std::string::npos;
}

bool GradingSession::any_selected(const TestBinary& binary) const {
  return std::any_of(binary.tests.begin(), binary.tests.end(),
                     [this](const DeclaredTest& test) { return selected(test.name); });
}

// Said once, under a student's own plain grade: how to grade as the
// instructor does (every mode, earlier chapters' tests counted).
std::string GradingSession::how_to_grade_as_instructor() const {
  if (!grades_kept(options_) || options_.modes.size() != 1 ||
      options_.modes.front() != Sanitizer::none || graded_chapters_.empty())
    return {};
  return fmt::format("The instructor's grade also runs each test under ThreadSanitizer and "
                     "AddressSanitizer, and counts earlier chapters' tests; to grade that way: "
                     "./scripts/grade {} --sanitize all --count-regressions",
                     chapters_argument(graded_chapters_));
}

void GradingSession::add(TestResult result, bool print) {
  if (!result.counted || result.status != Status::pass) result.points_earned = 0;
  ++tests_done_;
  if (print) console_.test(result);
  run_.results.push_back(std::move(result));
  write_files();
}

std::string GradingSession::tests_left() const {
  int left = tests_planned_ - tests_done_;
  return fmt::format("{} test{} left", left, left == 1 ? "" : "s");
}

// The chapter's entry in the student's record, from what it just scored.
void GradingSession::record_chapter(const std::string& chapter) {
  ChapterGrade grade;
  Score score = final_score(run_, chapter);
  grade.score = score.earned;
  grade.max_score = score.possible;
  grade.graded_at = local_time_now();
  grade.sanitizer = modes_label(options_.modes);
  grade.repeat = options_.repeat;
  for (const TestResult& r : run_.results) {
    if (r.chapter != chapter || !r.counted) continue;
    ++grade.tests;
    grade.passed += r.status == Status::pass;
    grade.not_started += r.status == Status::not_started;
  }
  try {
    record_grade(options_.grades_file, chapter, grade);
  } catch (const std::system_error& e) {
    print_progress(std::string(e.what()) + ": this grade is not kept for scripts/status");
  }
}

void GradingSession::write_files() {
  try {
    if (!options_.json_file.empty()) replace_file(options_.json_file, grader_json(run_));
    if (!options_.gradescope_file.empty())
      replace_file(options_.gradescope_file, gradescope_json(run_));
  } catch (const std::system_error& e) {
    if (!write_failed_) print_progress(std::string(e.what()) + " (the grader will exit with 2)");
    write_failed_ = true;
  }
}

}  // namespace grader
