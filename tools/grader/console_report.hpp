// What the grader prints while it works: a line per test as it finishes,
// the first lines of what went wrong under a failing test, a score per
// chapter, and "Score: a/b" as the very last line.
#pragma once

#include <string>
#include <vector>

#include "score.hpp"
#include "test_result.hpp"

namespace grader {

void print_test(const TestResult& result);
void print_chapter_score(const std::string& chapter, const std::vector<TestResult>& results);
// The last line, "Score: a/b", with `note` after it.
void print_final_score(const Score& score, const std::string& note = {});

// A block of text (the integrity report), control characters escaped.
void print_block(const std::string& text);

// `text` with control characters other than newline and tab shown as \xNN,
// so that nothing a test prints or names can drive the terminal.
std::string printable(const std::string& text);

// Progress notes ("building ...") go to stderr, apart from the report.
void print_progress(const std::string& note);

}  // namespace grader
