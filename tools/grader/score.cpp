// Adding up points; see score.hpp.
#include "score.hpp"

#include <fmt/format.h>

namespace grader {

Score counted_score(const std::vector<TestResult>& results, const std::string& chapter) {
  Score score;
  for (const TestResult& r : results) {
    if (!r.counted || (!chapter.empty() && r.chapter != chapter)) continue;
    score.earned += r.points_earned;
    score.possible += r.points_possible;
  }
  return score;
}

bool full_marks(const std::vector<TestResult>& results) {
  int counted = 0;
  for (const TestResult& r : results) {
    if (!r.counted) continue;
    ++counted;
    if (r.status != Status::pass) return false;
  }
  return counted > 0;
}

std::string what_broke(const std::vector<TestResult>& results, const std::string& chapter) {
  std::string names;
  int broken = 0;
  bool counted = false;
  for (const TestResult& r : results) {
    if (r.chapter != chapter || !r.regression || r.status == Status::pass) continue;
    counted = counted || r.counted;
    names += fmt::format("{}{} \"{}\"", broken++ == 0 ? "" : ", ", r.test_chapter, r.name);
  }
  if (broken == 0) return {};
  return fmt::format("the code of {} breaks {} earlier {}{}: {}", chapter, broken,
                     broken == 1 ? "chapter's test" : "chapters' tests",
                     counted ? " (counted against it)" : " (not counted)", names);
}

}  // namespace grader
