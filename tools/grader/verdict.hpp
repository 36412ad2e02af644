// Decides what one finished test process amounts to. Only the result
// record with the right token can make it a pass, and only together with a
// clean exit and no sanitizer report.
#pragma once

#include <string>

#include "child_process.hpp"
#include "sanitizer.hpp"
#include "test_result.hpp"

namespace grader {

struct Verdict {
  Status status = Status::error;
  std::string message;
};

Verdict judge(const ChildOutcome& outcome, const std::string& token, Sanitizer sanitizer,
              double budget_seconds);

// The last `count` lines of `text`.
std::string last_lines(const std::string& text, int count);

}  // namespace grader
