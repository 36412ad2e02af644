// Writing the result files; see result_files.hpp.
#include "result_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <set>
#include <system_error>

#include "json_writer.hpp"
#include "score.hpp"

namespace grader {

namespace {

// Captured output in the files is for a human to glance at.
constexpr std::size_t output_limit = 8 * 1024;

std::string cut(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + fmt::format("\n[... {} more bytes]", text.size() - limit);
}

std::vector<std::string> chapters_in(const std::vector<TestResult>& results) {
  std::vector<std::string> chapters;
  std::set<std::string> seen;
  for (const TestResult& r : results)
    if (seen.insert(r.chapter).second) chapters.push_back(r.chapter);
  return chapters;
}

void write_test(JsonWriter& json, const TestResult& r) {
  json.begin_object();
  json.field("chapter", r.chapter);
  json.field("test_chapter", r.test_chapter);
  json.field("name", r.name);
  json.field("points_earned", r.points_earned);
  json.field("points_possible", r.points_possible);
  json.field("counted", r.counted);
  json.field("regression", r.regression);
  json.field("status", status_name(r.status));
  json.field("seconds", r.seconds);
  json.field("runs", r.runs);
  json.field("failed_runs", r.failed_runs);
  json.field("message", r.message);
  json.field("output", cut(r.output, output_limit));
  json.end_object();
}

void write_chapter_scores(JsonWriter& json, const std::vector<TestResult>& results) {
  json.key("chapters");
  json.begin_array();
  for (const std::string& chapter : chapters_in(results)) {
    Score score = counted_score(results, chapter);
    json.begin_object();
    json.field("chapter", chapter);
    json.field("score", score.earned);
    json.field("max_score", score.possible);
    json.end_object();
  }
  json.end_array();
}

std::string gradescope_name(const TestResult& r) {
  if (r.regression)
    return fmt::format("[{}] regression, chapter {}: {}", r.chapter, r.test_chapter, r.name);
  return fmt::format("[{}] {}", r.chapter, r.name);
}

std::string gradescope_output(const TestResult& r) {
  std::string text = status_name(r.status);
  if (!r.message.empty()) text += "\n" + r.message;
  if (r.status != Status::pass && !r.output.empty())
    text += "\n\noutput:\n" + cut(r.output, output_limit);
  return text;
}

void write_gradescope_test(JsonWriter& json, const TestResult& r) {
  json.begin_object();
  json.field("name", gradescope_name(r));
  json.field("score", r.counted ? r.points_earned : 0);
  json.field("max_score", r.counted ? r.points_possible : 0);
  json.field("status", r.status == Status::pass ? "passed" : "failed");
  json.field("output", gradescope_output(r));
  json.field("visibility", "visible");
  json.end_object();
}

std::string summary(const GradingRun& run) {
  std::string text;
  for (const std::string& chapter : chapters_in(run.results)) {
    Score score = counted_score(run.results, chapter);
    text += fmt::format("{}: {}/{}\n", chapter, score.earned, score.possible);
  }
  Score total = counted_score(run.results);
  text += fmt::format("Score: {}/{}", total.earned, total.possible);
  if (!run.complete) text += " (grading did not finish)";
  return text;
}

}  // namespace

std::string grader_json(const GradingRun& run) {
  Score total = counted_score(run.results);
  JsonWriter json;
  json.begin_object();
  json.field("flavour", run.flavour);
  json.field("sanitizer", sanitizer_name(run.sanitizer));
  json.field("repeat", run.repeat);
  json.field("complete", run.complete);
  json.field("score", total.earned);
  json.field("max_score", total.possible);
  write_chapter_scores(json, run.results);
  json.key("tests");
  json.begin_array();
  for (const TestResult& r : run.results) write_test(json, r);
  json.end_array();
  json.end_object();
  return json.text() + "\n";
}

std::string gradescope_json(const GradingRun& run) {
  JsonWriter json;
  json.begin_object();
  json.field("score", counted_score(run.results).earned);
  json.field("output", summary(run));
  json.field("visibility", "visible");
  json.key("tests");
  json.begin_array();
  for (const TestResult& r : run.results) write_gradescope_test(json, r);
  json.end_array();
  json.end_object();
  return json.text() + "\n";
}

void replace_file(const std::string& path, const std::string& text) {
  std::string temporary = fmt::format("{}.tmp{}", path, getpid());
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot write " + temporary);
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    written += static_cast<std::size_t>(n);
  }
  bool closed = close(fd) == 0;
  if (written != text.size() || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    std::remove(temporary.c_str());
    throw std::system_error(error, std::generic_category(), "cannot write " + path);
  }
}

}  // namespace grader
