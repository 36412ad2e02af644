// Deciding what to grade; see grading_plan.hpp.
#include "grading_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "build.hpp"
#include "chapter_selection.hpp"
#include "console_report.hpp"
#include "manifest.hpp"

namespace grader {

namespace {

std::string test_target(const std::string& flavour, const std::string& runtime_chapter,
                        const std::string& test_chapter) {
  return fmt::format("tests/{}-{}-tests-{}", flavour, chapter_number(runtime_chapter),
                     chapter_number(test_chapter));
}

// A chapter's model tests: its runtime built against the model checker.
std::string model_target(const std::string& flavour, const std::string& chapter) {
  return fmt::format("tests/{}-{}-model-{}", flavour, chapter_number(chapter), chapter_number(chapter));
}

std::string hidden_target(const std::string& flavour, const std::string& chapter) {
  return fmt::format("tests/hidden/{}-{}-hidden-{}", flavour, chapter_number(chapter),
                     chapter_number(chapter));
}

TestBinary binary_for(const std::string& build_dir, std::string target) {
  TestBinary binary;
  binary.target = std::move(target);
  binary.path = build_dir + "/" + binary.target;
  return binary;
}

ChapterPlan plan_chapter(const std::vector<std::string>& course, const std::string& chapter,
                         const std::string& source_root, const std::string& build_dir,
                         bool solutions, bool own_tests_only) {
  std::string flavour = solutions ? "solutions" : "chapters";
  ChapterPlan plan{chapter, {}, {}, 0, {}};
  std::vector<TestBinary> regressions;
  for (const std::string& earlier : course) {
    if (own_tests_only && earlier != chapter) continue;
    TestBinary binary = binary_for(build_dir, test_target(flavour, chapter, earlier));
    binary.test_chapter = earlier;
    binary.regression = earlier != chapter;
    binary.tests = declared_tests(test_sources_in(source_root + "/tests/" + earlier));
    if (binary.regression)
      regressions.push_back(binary);
    else
      plan.binaries.push_back(binary);
    if (earlier == chapter) break;
  }
  auto model = test_sources_in(source_root + "/tests/" + chapter + "/model");
  if (!model.empty()) {
    TestBinary binary = binary_for(build_dir, model_target(flavour, chapter));
    binary.test_chapter = chapter;
    binary.tests = declared_tests(model);
    plan.binaries.push_back(binary);
  }
  auto hidden = test_sources_in(source_root + "/tests/hidden/" + chapter);
  if (!hidden.empty()) {
    TestBinary binary = binary_for(build_dir, hidden_target(flavour, chapter));
    binary.test_chapter = chapter;
    binary.hidden = true;
    binary.reference_target = hidden_target("solutions", chapter);
    binary.tests = declared_tests(hidden);
    plan.binaries.push_back(binary);
  }
  // The chapter's own tests first, then the regressions.
  plan.binaries.insert(plan.binaries.end(), regressions.begin(), regressions.end());
  return plan;
}

std::string file_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The code under test of a chapter graded in place: its folder's files.
std::vector<std::string> files_of(const std::string& source_root, const std::string& flavour,
                                  const std::string& chapter) {
  std::vector<std::string> files;
  std::error_code error;
  std::string dir = source_root + "/" + flavour + "/" + chapter;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->is_regular_file(error) && !is_build_file(it->path().string()))
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The first of `files` that still holds a stub of `chapter`, as
// scripts/snapshot writes them: Todo("6 of chapter 01 (block_on, in ...)").
std::string first_stub_file(const std::vector<std::string>& files, const std::string& chapter) {
  std::regex stub("Todo\\(\"[0-9]+ of chapter " + chapter_number(chapter) + " \\(");
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (std::regex_search(text, stub)) return path;
  }
  return {};
}

// Leaves a chapter's regressions out of a student's own grade while its
// stubs remain (see ChapterPlan::deferred_regressions).
void defer_regressions(ChapterPlan& chapter, const std::string& source_root) {
  chapter.stub_file = first_stub_file(chapter.student_files, chapter.chapter);
  if (chapter.stub_file.empty()) return;
  chapter.stub_file = std::filesystem::relative(chapter.stub_file, source_root).string();
  auto regression = [](const TestBinary& b) { return b.regression; };
  for (const TestBinary& binary : chapter.binaries)
    if (binary.regression) chapter.deferred_regressions += static_cast<int>(binary.tests.size());
  chapter.binaries.erase(
      std::remove_if(chapter.binaries.begin(), chapter.binaries.end(), regression),
      chapter.binaries.end());
}

}  // namespace

GradingPlan plan_from_manifest(const Options& options) {
  Manifest manifest = read_manifest(options.builddir);
  std::vector<std::string> selected = select_chapters(manifest.chapters, options.chapters);
  GradingPlan plan;
  std::string source_root = manifest.source_root;
  if (!options.submission.empty() || !options.hidden.empty()) {
    CopyRequest request;
    request.course_root = manifest.source_root;
    request.chapters = manifest.chapters;
    request.submission = options.submission.empty() ? manifest.source_root : options.submission;
    request.hidden = options.hidden;
    request.workdir = options.workdir.empty() ? options.builddir + "/submission" : options.workdir;
    request.modes = options.modes;
    request.sandbox = options.sandbox;
    request.builder_uid = builder_uid;
    if (options.sandbox) {
      plan.builder = RunUser::take();
      if (plan.builder)
        request.builder_uid = plan.builder->uid();
      else
        print_progress("warning: no user id of this run's own could be taken for the build: it "
                       "runs as the builder every such run shares");
    }
    plan.copy = prepare_copy(request);
    for (const std::string& warning : plan.copy.warnings) print_progress("warning: " + warning);
    plan.copied = true;
    for (std::size_t i = 0; i < options.modes.size(); ++i)
      plan.builds.push_back({options.modes[i], plan.copy.build_dirs[i]});
    source_root = plan.copy.source_root;
  } else {
    for (Sanitizer mode : options.modes)
      plan.builds.push_back(
          {mode, prepare_build_dir(options.builddir, manifest.source_root, mode)});
  }
  plan.build_dir = plan.builds.front().build_dir;
  plan.source_root = source_root;
  std::string flavour = options.solutions ? "solutions" : "chapters";
  for (const std::string& chapter : selected) {
    ChapterPlan chapter_plan = plan_chapter(manifest.chapters, chapter, source_root,
                                            plan.build_dir, options.solutions,
                                            options.own_tests_only);
    if (!options.solutions) chapter_plan.student_files = files_of(source_root, flavour, chapter);
    // Only a student's own look at a chapter: never an instructor's grade,
    // nor one that asks for every test or counts the regressions.
    if (!options.solutions && !plan.copied && !options.count_regressions &&
        !options.every_test && !options.build_only)
      defer_regressions(chapter_plan, source_root);
    plan.chapters.push_back(chapter_plan);
  }
  return plan;
}

GradingPlan plan_from_binaries(const Options& options) {
  GradingPlan plan;
  plan.builds = {{options.modes.front(), {}}};
  std::vector<DeclaredTest> tests = declared_tests(options.sources);
  for (const std::string& path : options.binaries) {
    std::string name = file_name(path);
    TestBinary binary;
    binary.test_chapter = name;
    binary.path = path;
    binary.tests = tests;
    plan.chapters.push_back({name, {binary}, {}, 0, {}});
  }
  return plan;
}

}  // namespace grader
