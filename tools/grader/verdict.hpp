// Decides what one finished test process amounts to. Only the result
// record with the right token can make it a pass, and only together with a
// clean exit and no sanitizer report. A run that did not pass after a
// stub threw rt::Todo is "not started" (see unfinished_exercise.hpp).
#pragma once

#include <string>
#include <utility>

#include "child_process.hpp"
#include "sanitizer.hpp"
#include "test_result.hpp"

namespace grader {

struct Verdict {
  Verdict() = default;
  Verdict(Status s, std::string m) : status(s), message(std::move(m)) {}

  Status status = Status::error;
  std::string message;
  // For Status::not_started: the exercise whose stub the test reached,
  // "4 of chapter 01 (yield_now, in rt/task/yield_now.cpp)".
  std::string exercise;
  // For Status::pass: what the test observed (reference_run.hpp).
  std::string observations;
};

Verdict judge(const ChildOutcome& outcome, const std::string& token, Sanitizer sanitizer,
              double budget_seconds);

// The last `count` lines of `text`.
std::string last_lines(const std::string& text, int count);

}  // namespace grader
