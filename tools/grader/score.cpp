// Adding up points; see score.hpp.
#include "score.hpp"

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

}  // namespace grader
