// The console report; see console_report.hpp.
#include "console_report.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace grader {

namespace {

// Enough to see what went wrong; the JSON file has the rest. A data race
// has two sides, each with its stack: ThreadSanitizer's report gets more.
// A hang's report lists each thread and its frames.
constexpr int detail_lines = 12;
constexpr int race_report_lines = 48;
constexpr int hang_report_lines = 40;
// A model test's failing schedule: the switches and reads that lead to the
// failure, which is its last line.
constexpr int model_report_lines = 100;

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

bool g_status_shown = false;

bool stderr_is_terminal() {
  static const bool terminal = isatty(STDERR_FILENO) == 1;
  return terminal;
}

std::size_t terminal_width() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 10) return size.ws_col - 1;
  return 79;
}

int detail_limit(const std::string& message) {
  if (message.find("ThreadSanitizer: ") != std::string::npos) return race_report_lines;
  if (message.find("What it was doing") != std::string::npos) return hang_report_lines;
  if (message.find("the failing execution, step by step") != std::string::npos) return model_report_lines;
  return detail_lines;
}

void print_details(const std::string& message) {
  std::istringstream in(message);
  std::string line;
  int shown = 0;
  int limit = detail_limit(message);
  while (std::getline(in, line)) {
    if (shown++ == limit) {
      fmt::print("      | ...\n");
      break;
    }
    fmt::print("      | {}\n", printable(line));
  }
}

// A counted regression that fails names what broke: an earlier chapter's
// test that this chapter's code makes fail.
std::string label(const TestResult& r) {
  if (r.hidden) return "(hidden) " + r.name;
  if (!r.regression) return r.name;
  if (r.counted && r.status != Status::pass)
    return fmt::format("(regression, chapter {}: broken by {}) {}", r.test_chapter, r.chapter,
                       r.name);
  return fmt::format("(regression, chapter {}{}) {}", r.test_chapter,
                     r.counted ? "" : ", not counted", r.name);
}

// The mode a test failed in, when it is not plain: "sanitizer (thread)".
std::string status_text(const TestResult& r) {
  std::string status = status_name(r.status);
  std::string failed = failed_mode(r);
  if (!failed.empty() && failed != "plain") status += " (" + failed + ")";
  if (r.failed_runs > 0 && r.runs > 1) status += fmt::format(" {}/{}", r.failed_runs, r.runs);
  return status;
}

std::string timing(const TestResult& r) {
  if (r.runs == 0) return "";
  if (r.runs == 1) return fmt::format("{:.2f}s", r.seconds);
  return fmt::format("{:.2f}s/{}", r.seconds, r.runs);
}

// A regression that is not counted earns nothing either way: no points
// column, so that a pass does not read as "0/2".
std::string points_column(bool counted, long earned, long possible) {
  if (!counted) return "  -    ";
  return fmt::format("{:>3}/{:<3}", earned, possible);
}

void print_row(const std::string& chapter, const std::string& status, const std::string& points,
               const std::string& time, const std::string& what) {
  clear_status();
  fmt::print("  {:<14} {:<18} {} {:>9}  {}\n", chapter, status, points, time, printable(what));
}

// "41 not started, 12 pass": how many of `results` ended each way.
std::string tally(const std::vector<TestResult>& results) {
  std::vector<std::pair<std::string, int>> counts;
  for (const TestResult& r : results) {
    std::string name = status_name(r.status);
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&name](const auto& c) { return c.first == name; });
    if (it == counts.end())
      counts.emplace_back(name, 1);
    else
      ++it->second;
  }
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string text;
  for (const auto& [name, count] : counts)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, name);
  return text;
}

void print_chapter_score(const std::string& chapter, const std::vector<TestResult>& results) {
  Score score = counted_score(results, chapter);
  int regressions = 0, regressions_passed = 0;
  for (const TestResult& r : results) {
    if (r.chapter != chapter || !r.regression || r.counted) continue;
    ++regressions;
    regressions_passed += r.status == Status::pass;
  }
  clear_status();
  fmt::print("{}: {}/{}", chapter, score.earned, score.possible);
  if (regressions > 0)
    fmt::print(" (earlier chapters' tests, not counted: {} of {} pass)", regressions_passed,
               regressions);
  // Counted (none of them was left out above), what broke is part of the
  // grade: said under it.
  std::string broke = what_broke(results, chapter);
  if (!broke.empty() && regressions == 0) fmt::print("\n{}", printable(broke));
  fmt::print("\n\n");
  std::fflush(stdout);
}

}  // namespace

bool ConsoleReport::show_details(Status status) {
  if (status == Status::pass) return false;
  if (!settings_.brief) return true;
  return detailed_.insert(status).second;
}

void ConsoleReport::print_result_line(const TestResult& r) {
  print_row(r.chapter, status_text(r), points_column(r.counted, r.points_earned, r.points_possible),
            timing(r), label(r));
  if (show_details(r.status)) print_details(r.message);
  std::fflush(stdout);
}

void ConsoleReport::test(const TestResult& r) {
  if (!r.regression && r.status == Status::not_started) own_unfinished_ = true;
  if (settings_.every_test) return print_result_line(r);
  if (r.regression && !r.counted && own_unfinished_) {
    folded_regressions_.push_back(r);
    return;
  }
  if (r.status != Status::not_started) return print_result_line(r);
  auto same = [&r](const Exercise& e) {
    return e.chapter == r.chapter && e.exercise == r.exercise && e.regression == r.regression &&
           e.counted == r.counted;
  };
  auto it = std::find_if(exercises_.begin(), exercises_.end(), same);
  if (it == exercises_.end())
    it = exercises_.insert(exercises_.end(), {r.chapter, r.exercise, r.regression, r.counted});
  ++it->tests;
  it->points += r.points_possible;
}

void ConsoleReport::not_compiling(const std::vector<TestResult>& results,
                                  const std::string& target) {
  if (results.empty()) return;
  if (settings_.every_test) {
    for (const TestResult& r : results) print_result_line(r);
    return;
  }
  const TestResult& first = results.front();
  long points = 0;
  for (const TestResult& r : results) points += r.points_possible;
  std::string what = fmt::format("{}: {} test{}", target, results.size(),
                                 results.size() == 1 ? "" : "s");
  if (first.regression) what = fmt::format("(regression, chapter {}) {}", first.test_chapter, what);
  print_row(first.chapter, status_name(Status::does_not_compile),
            points_column(first.counted, 0, points), "", what);
  if (show_details(Status::does_not_compile)) print_details(first.message);
  std::fflush(stdout);
}

void ConsoleReport::regressions_deferred(int tests, const std::string& stub_file) {
  deferred_regressions_ = tests;
  stub_file_ = stub_file;
}

void ConsoleReport::chapter_done(const std::string& chapter,
                                 const std::vector<TestResult>& results) {
  for (const Exercise& e : exercises_) {
    std::string what = fmt::format("exercise {}, needed by {} test{}", e.exercise, e.tests,
                                   e.tests == 1 ? "" : "s");
    if (e.regression) what = "(regression) " + what;
    print_row(e.chapter, status_name(Status::not_started), points_column(e.counted, 0, e.points),
              "", what);
  }
  if (!folded_regressions_.empty())
    print_row(chapter, "regressions", points_column(false, 0, 0), "",
              fmt::format("earlier chapters' tests, not counted: {}; shown one by one once "
                          "this chapter's exercises are all started (--every-test: now)",
                          tally(folded_regressions_)));
  exercises_.clear();
  folded_regressions_.clear();
  if (deferred_regressions_ > 0)
    print_row(chapter, "regressions", points_column(false, 0, 0), "",
              fmt::format("earlier chapters' tests, not counted: {} not built or run while this "
                          "chapter has stubs ({} has one); they run once every stub is gone "
                          "(--every-test: now)",
                          deferred_regressions_, stub_file_));
  deferred_regressions_ = 0;
  own_unfinished_ = false;
  print_chapter_score(chapter, results);
}

void print_final_score(const Score& score, const std::string& note) {
  clear_status();
  fmt::print("Score: {}/{}{}\n", score.earned, score.possible, note);
  std::fflush(stdout);
}

void print_block(const std::string& text) {
  if (text.empty()) return;
  clear_status();
  fmt::print("{}\n", printable(text));
  std::fflush(stdout);
}

void print_line(const std::string& text) {
  clear_status();
  fmt::print("{}\n", printable(text));
  std::fflush(stdout);
}

void print_progress(const std::string& note) {
  clear_status();
  fmt::print(stderr, "grader: {}\n", printable(note));
  std::fflush(stderr);
}

void show_status(const std::string& text) {
  if (!stderr_is_terminal()) return;
  std::string line = printable("grader: " + text);
  std::size_t width = terminal_width();
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  fmt::print(stderr, "\r\033[K{}", line);
  std::fflush(stderr);
  g_status_shown = true;
}

void clear_status() {
  if (!g_status_shown) return;
  // The report may go to a file while stderr is the terminal: flush what
  // it holds first, so that the two do not interleave mid-line.
  std::fflush(stdout);
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  g_status_shown = false;
}

}  // namespace grader
