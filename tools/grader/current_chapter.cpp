// Which chapter a student is on; see current_chapter.hpp.
#include "current_chapter.hpp"

#include <fmt/format.h>

namespace grader {

namespace {

constexpr const char other_choices[] = "--all: every chapter; 2 or 1-3: the ones named";

}  // namespace

CurrentChapter current_chapter(const std::vector<std::string>& chapters,
                               const GradeRecord& record) {
  if (chapters.empty()) return {};
  for (const std::string& chapter : chapters) {
    auto graded = record.find(chapter);
    if (graded == record.end()) {
      std::string why = record.empty() ? "no chapter graded yet"
                                       : "the first chapter without full marks, never graded";
      return {chapter, fmt::format("Grading {}: {}. ({})", chapter, why, other_choices)};
    }
    if (!graded->second.full_marks())
      return {chapter, fmt::format("Grading {}: the first chapter without full marks ({}/{} "
                                   "on {}). ({})",
                                   chapter, graded->second.score, graded->second.max_score,
                                   graded->second.graded_at, other_choices)};
  }
  const std::string& last = chapters.back();
  return {last, fmt::format("Grading {}: every chapter had full marks at its last grade, and "
                            "the last runs every earlier chapter's tests. ({})",
                            last, other_choices)};
}

}  // namespace grader
