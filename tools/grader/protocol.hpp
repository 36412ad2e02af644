// The grader's side of the protocol every test binary speaks (see
// tests/support/grading_main.cpp): `--run NAME --grader-token=TOKEN` with
// descriptor 3 a pipe, and the result record that comes back on it.
#pragma once

#include <optional>
#include <string>

namespace grader {

// A fresh unguessable token for one run of one test.
std::string make_token();

// A fresh seed for a hidden test's observations (tests/support/observe.hpp).
std::string make_seed();

struct Record {
  bool passed = false;
  std::string observations;  // its OBSERVE()s, one "what<TAB>value" line each
  std::string messages;      // the failures, when it did not pass
};

// The record carrying `token`, if the test wrote one. Anything else on the
// channel (a forged record, garbage) is ignored.
std::optional<Record> parse_record(const std::string& data, const std::string& token);

}  // namespace grader
