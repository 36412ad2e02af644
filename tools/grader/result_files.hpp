// The two result files: --json (the grader's complete record) and
// --gradescope (Gradescope's results.json). Both are rewritten after every
// finished test, through a temporary file and a rename, so a grader killed
// half-way leaves valid files holding what had finished.
#pragma once

#include <string>
#include <vector>

#include "sanitizer.hpp"
#include "test_result.hpp"

namespace grader {

struct GradingRun {
  std::string flavour;  // "chapters", "solutions" or "binaries"
  Sanitizer sanitizer = Sanitizer::none;
  int repeat = 1;
  bool complete = false;  // false while tests are still running
  std::vector<TestResult> results;
};

std::string grader_json(const GradingRun& run);
std::string gradescope_json(const GradingRun& run);

// Writes `text` to `path` so that readers see the old file or the new one,
// never half of one. Throws std::system_error.
void replace_file(const std::string& path, const std::string& text);

}  // namespace grader
