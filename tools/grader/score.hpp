// Adding up points. Only counted tests make the score; regressions of
// earlier chapters count only with --count-regressions. Sums are 64-bit and
// each test's points are bounded where they are declared, so no total can
// overflow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_result.hpp"

namespace grader {

struct Score {
  std::int64_t earned = 0;
  std::int64_t possible = 0;
};

// Over every chapter when `chapter` is empty.
Score counted_score(const std::vector<TestResult>& results, const std::string& chapter = {});

// Every counted test passed (and there was at least one).
bool full_marks(const std::vector<TestResult>& results);

// What `chapter`'s code broke: the earlier chapters' tests that fail on its
// runtime, as one line ("the code of 02-wakers breaks 2 earlier chapters'
// tests (counted against it): 01-executor "name", ..."); empty when none
// failed.
std::string what_broke(const std::vector<TestResult>& results, const std::string& chapter);

}  // namespace grader
