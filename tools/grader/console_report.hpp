// What the grader prints while it works: a line per test as it finishes,
// the first lines of what went wrong under a failing test, a score per
// chapter, and "Score: a/b" as the very last line.
//
// What would bury the one failure that matters is folded: tests stopped by
// an unfinished exercise are one "not started" line per exercise, a test
// binary that does not compile is one line with its errors, and while a
// chapter's own exercises are unfinished its regressions (earlier
// chapters' tests, not counted) are one line. The JSON file has every test.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "score.hpp"
#include "test_result.hpp"

namespace grader {

struct ConsoleSettings {
  bool every_test = false;  // --every-test: nothing folded
  bool brief = false;       // --brief: the details of one failure of each kind
};

class ConsoleReport {
 public:
  explicit ConsoleReport(ConsoleSettings settings) : settings_(settings) {}

  // A finished test: printed now, or folded into its chapter's summary.
  void test(const TestResult& result);

  // All the tests of one test binary that does not compile, as one line.
  void not_compiling(const std::vector<TestResult>& results, const std::string& target);

  // The chapter's regressions left out while its stubs remain
  // (ChapterPlan::deferred_regressions): a line of its own in chapter_done.
  void regressions_deferred(int tests, const std::string& stub_file);

  // The folded lines of `chapter`, then its score.
  void chapter_done(const std::string& chapter, const std::vector<TestResult>& results);

 private:
  struct Exercise {
    std::string chapter;
    std::string exercise;
    bool regression = false;
    bool counted = true;
    int tests = 0;
    long points = 0;
  };

  void print_result_line(const TestResult& r);
  bool show_details(Status status);
  bool folds_regressions() const { return own_unfinished_ && !settings_.every_test; }

  ConsoleSettings settings_;
  std::vector<Exercise> exercises_;  // in the order they were first reached
  std::vector<TestResult> folded_regressions_;
  int deferred_regressions_ = 0;
  std::string stub_file_;
  bool own_unfinished_ = false;  // a test of the chapter itself is not started
  std::set<Status> detailed_;    // --brief: the kinds whose details were shown
};

// The last line, "Score: a/b", with `note` after it.
void print_final_score(const Score& score, const std::string& note = {});

// A block of text (the integrity report), control characters escaped.
void print_block(const std::string& text);

// A line of the report that is not a test's (which chapter is graded, and why).
void print_line(const std::string& text);

// `text` with control characters other than newline and tab shown as \xNN,
// so that nothing a test prints or names can drive the terminal.
std::string printable(const std::string& text);

// Progress notes ("building ...") go to stderr, apart from the report.
void print_progress(const std::string& note);

// Where stderr is a terminal, one line that is rewritten in place as the
// grading goes ("test 5 of 24, 19 left: ..."); nothing elsewhere, so that
// logs hold the report alone. Cleared before every line of the report.
void show_status(const std::string& text);
void clear_status();

}  // namespace grader
