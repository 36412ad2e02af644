// The console report; see console_report.hpp.
#include "console_report.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <sstream>

#include "score.hpp"

namespace grader {

namespace {

// Enough to see what went wrong; the JSON file has the rest. A data race
// has two sides, each with its stack: ThreadSanitizer's report gets more.
constexpr int detail_lines = 12;
constexpr int race_report_lines = 48;

}  // namespace

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f)
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
  }
  return out;
}

namespace {

void print_details(const std::string& message) {
  std::istringstream in(message);
  std::string line;
  int shown = 0;
  int limit = message.find("ThreadSanitizer") != std::string::npos ? race_report_lines
                                                                   : detail_lines;
  while (std::getline(in, line)) {
    if (shown++ == limit) {
      fmt::print("      | ...\n");
      break;
    }
    fmt::print("      | {}\n", printable(line));
  }
}

std::string label(const TestResult& r) {
  if (r.hidden) return "(hidden) " + r.name;
  if (!r.regression) return r.name;
  return fmt::format("(regression, chapter {}{}) {}", r.test_chapter,
                     r.counted ? "" : ", not counted", r.name);
}

std::string timing(const TestResult& r) {
  if (r.runs == 0) return "";
  if (r.runs == 1) return fmt::format("{:.2f}s", r.seconds);
  return fmt::format("{:.2f}s/{}", r.seconds, r.runs);
}

}  // namespace

void print_test(const TestResult& r) {
  std::string status = status_name(r.status);
  if (r.failed_runs > 0 && r.runs > 1) status += fmt::format(" {}/{}", r.failed_runs, r.runs);
  // A regression that is not counted earns nothing either way: no points
  // column, so that a pass does not read as "0/2".
  std::string points = r.regression && !r.counted
                           ? std::string("  -    ")
                           : fmt::format("{:>3}/{:<3}", r.points_earned, r.points_possible);
  fmt::print("  {:<14} {:<18} {} {:>9}  {}\n", r.chapter, status, points, timing(r),
             printable(label(r)));
  if (r.status != Status::pass) print_details(r.message);
  std::fflush(stdout);
}

void print_chapter_score(const std::string& chapter, const std::vector<TestResult>& results) {
  Score score = counted_score(results, chapter);
  int regressions = 0, regressions_passed = 0;
  for (const TestResult& r : results) {
    if (r.chapter != chapter || !r.regression || r.counted) continue;
    ++regressions;
    regressions_passed += r.status == Status::pass;
  }
  fmt::print("{}: {}/{}", chapter, score.earned, score.possible);
  if (regressions > 0)
    fmt::print(" (earlier chapters' tests, not counted: {} of {} pass)", regressions_passed,
               regressions);
  fmt::print("\n\n");
}

void print_final_score(const Score& score, const std::string& note) {
  fmt::print("Score: {}/{}{}\n", score.earned, score.possible, note);
  std::fflush(stdout);
}

void print_block(const std::string& text) {
  if (text.empty()) return;
  fmt::print("{}\n", printable(text));
  std::fflush(stdout);
}

void print_progress(const std::string& note) {
  fmt::print(stderr, "grader: {}\n", printable(note));
  std::fflush(stderr);
}

}  // namespace grader
