// Adding up points. Only counted tests make the score; regressions of
// earlier chapters count only with --count-regressions.
#pragma once

#include <string>
#include <vector>

#include "test_result.hpp"

namespace grader {

struct Score {
  int earned = 0;
  int possible = 0;
};

// Over every chapter when `chapter` is empty.
Score counted_score(const std::vector<TestResult>& results, const std::string& chapter = {});

// Every counted test passed (and there was at least one).
bool full_marks(const std::vector<TestResult>& results);

}  // namespace grader
