// The two result files: --json (the grader's complete record) and
// --gradescope (Gradescope's results.json). Both are rewritten after every
// finished test, through a temporary file and a rename, so a grader killed
// half-way leaves valid files holding what had finished.
#pragma once

#include <string>
#include <vector>

#include "integrity.hpp"
#include "sanitizer.hpp"
#include "score.hpp"
#include "submission.hpp"
#include "test_result.hpp"

namespace grader {

struct GradingRun {
  std::string flavour;  // "chapters", "solutions" or "binaries"
  std::vector<Sanitizer> modes = {Sanitizer::none};  // each test ran in every one
  int repeat = 1;
  bool sandbox = false;
  bool complete = false;  // false while tests are still running
  std::vector<TestResult> results;
  // What the integrity scan found, and what the submission changed outside
  // the starter's files (both empty when not applicable).
  std::vector<Finding> integrity;
  std::vector<ChangedFile> other_changes;
  std::vector<std::string> missing_files;
  bool strict = false;  // --strict: any integrity finding scores 0
  // Why the integrity scan could not complete, if it could not: then the
  // submission is not scored (0), with or without --strict.
  std::string scan_error;
};

// The score that counts: the tests' points, or 0 under --strict with
// integrity findings, or 0 when the scan could not complete.
Score final_score(const GradingRun& run, const std::string& chapter = {});
bool zeroed_by_strict(const GradingRun& run);

// The integrity findings and unused changes, as text for people.
std::string integrity_summary(const GradingRun& run);

std::string grader_json(const GradingRun& run);
std::string gradescope_json(const GradingRun& run);

// Writes `text` to `path` so that readers see the old file or the new one,
// never half of one. Throws std::system_error.
void replace_file(const std::string& path, const std::string& text);

}  // namespace grader
