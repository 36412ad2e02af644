// The grader's side of the protocol every test binary speaks (see
// tests/support/grading_main.cpp): the --list format, the secret token and
// the result record.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace grader {

struct ListedTest {
  int points = 0;
  double declared_timeout = 0;  // seconds; 0 when the test declares none
  std::string name;
};

// The tests in `binary --list` output.
std::vector<ListedTest> parse_listing(const std::string& text);

// A fresh unguessable token for one run of one test.
std::string make_token();

struct Record {
  bool passed = false;
  std::string messages;  // the failures, when it did not pass
};

// The record carrying `token`, if the test wrote one. Anything else on the
// pipe (a forged record, garbage) is ignored.
std::optional<Record> parse_record(const std::string& data, const std::string& token);

}  // namespace grader
