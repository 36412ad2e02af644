// What the grader prints while it works: a line per test as it finishes,
// the first lines of what went wrong under a failing test, a score per
// chapter, and "Score: a/b" as the very last line.
#pragma once

#include <string>
#include <vector>

#include "test_result.hpp"

namespace grader {

void print_test(const TestResult& result);
void print_chapter_score(const std::string& chapter, const std::vector<TestResult>& results);
void print_final_score(const std::vector<TestResult>& results);

// Progress notes ("building ...") go to stderr, apart from the report.
void print_progress(const std::string& note);

}  // namespace grader
