// The grader's side of the test binary protocol; see protocol.hpp.
#include "protocol.hpp"

#include <cstdlib>
#include <random>
#include <sstream>

namespace grader {

namespace {

std::optional<ListedTest> parse_listed_line(const std::string& line) {
  auto first_tab = line.find('\t');
  auto second_tab = line.find('\t', first_tab + 1);
  if (first_tab == std::string::npos || second_tab == std::string::npos) return std::nullopt;
  std::string points = line.substr(0, first_tab);
  std::string timeout = line.substr(first_tab + 1, second_tab - first_tab - 1);
  if (points.empty() || points.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  char* end = nullptr;
  double seconds = std::strtod(timeout.c_str(), &end);
  if (timeout.empty() || *end != '\0' || seconds < 0) return std::nullopt;
  return ListedTest{std::atoi(points.c_str()), seconds, line.substr(second_tab + 1)};
}

}  // namespace

std::vector<ListedTest> parse_listing(const std::string& text) {
  std::vector<ListedTest> tests;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    // stdout and stderr arrive mixed: lines that are not in the listing
    // format come from elsewhere (a static constructor, a sanitizer).
    if (auto test = parse_listed_line(line)) tests.push_back(*test);
  }
  return tests;
}

std::string make_token() {
  std::random_device random;  // the kernel's randomness on Linux
  std::ostringstream token;
  token << std::hex;
  for (int i = 0; i < 4; ++i) token << random();
  return token.str();
}

std::optional<Record> parse_record(const std::string& data, const std::string& token) {
  // A failing record wins should both somehow be present.
  for (const char* verdict : {" fail\n", " pass\n"}) {
    std::string header = token + verdict;
    auto at = data.find(header);
    if (at == std::string::npos) continue;
    Record record;
    record.passed = std::string(verdict) == " pass\n";
    record.messages = data.substr(at + header.size());
    return record;
  }
  return std::nullopt;
}

}  // namespace grader
