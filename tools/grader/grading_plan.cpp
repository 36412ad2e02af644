// Deciding what to grade; see grading_plan.hpp.
#include "grading_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "build.hpp"
#include "chapter_selection.hpp"
#include "manifest.hpp"

namespace grader {

namespace {

std::string test_target(const std::string& flavour, const std::string& runtime_chapter,
                        const std::string& test_chapter) {
  return fmt::format("tests/{}-{}-tests-{}", flavour, chapter_number(runtime_chapter),
                     chapter_number(test_chapter));
}

ChapterPlan plan_chapter(const std::vector<std::string>& course, const std::string& chapter,
                         const std::string& build_dir, bool solutions, bool own_tests_only) {
  std::string flavour = solutions ? "solutions" : "chapters";
  ChapterPlan plan{chapter, {}};
  for (const std::string& earlier : course) {
    if (own_tests_only && earlier != chapter) continue;
    TestBinary binary;
    binary.test_chapter = earlier;
    binary.regression = earlier != chapter;
    binary.target = test_target(flavour, chapter, earlier);
    binary.path = build_dir + "/" + binary.target;
    if (!solutions) binary.listing_target = test_target("solutions", chapter, earlier);
    plan.binaries.push_back(binary);
    if (earlier == chapter) break;
  }
  // The chapter's own tests first, then the regressions.
  std::rotate(plan.binaries.begin(), plan.binaries.end() - 1, plan.binaries.end());
  return plan;
}

std::string file_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

GradingPlan plan_from_manifest(const Options& options) {
  Manifest manifest = read_manifest(options.builddir);
  std::vector<std::string> selected = select_chapters(manifest.chapters, options.chapters);
  GradingPlan plan;
  plan.build_dir = prepare_build_dir(options.builddir, manifest.source_root, options.sanitizer);
  for (const std::string& chapter : selected)
    plan.chapters.push_back(
        plan_chapter(manifest.chapters, chapter, plan.build_dir, options.solutions,
                     options.own_tests_only));
  return plan;
}

GradingPlan plan_from_binaries(const Options& options) {
  GradingPlan plan;
  for (const std::string& path : options.binaries) {
    std::string name = file_name(path);
    // A bare file name would be looked up in PATH by exec.
    std::string runnable = path.find('/') == std::string::npos ? "./" + path : path;
    plan.chapters.push_back({name, {TestBinary{name, false, runnable, {}, {}}}});
  }
  return plan;
}

}  // namespace grader
