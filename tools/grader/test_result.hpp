// What grading one test case produced: the values every report (console,
// JSON, Gradescope) is written from.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace grader {

enum class Status {
  pass,
  fail,
  crash,
  timeout,
  exited_early,
  sanitizer,
  does_not_compile,
  not_started,  // it failed, in whatever way, after an exercise's stub threw rt::Todo
  error
};

// "pass", "fail", "crash", "timeout", "exited early", "sanitizer",
// "does not compile", "not started", "error".
std::string status_name(Status status);

struct TestResult {
  std::string chapter;       // the chapter being graded
  std::string test_chapter;  // the chapter the test belongs to
  std::string name;
  int points_possible = 0;
  int points_earned = 0;
  bool regression = false;  // an earlier chapter's test
  bool hidden = false;      // an instructor's hidden test (--hidden)
  bool counted = true;      // part of the score
  Status status = Status::error;
  double seconds = 0;
  int runs = 0;
  int failed_runs = 0;
  // Each mode the test ran in ("plain", "thread", "address") and how it
  // ended there; modes after the first failure are not run.
  std::vector<std::pair<std::string, Status>> modes;
  std::string exercise;  // not_started: the exercise it needs, "6 of chapter 01 (block_on, in FILE)"
  std::string message;   // why it did not pass
  std::string output;   // what it printed (bounded)
};

// The mode whose failure a result shows (the last it ran in, since none
// runs after a failure), or "" when it passed or never ran.
std::string failed_mode(const TestResult& r);


}  // namespace grader
