// Writing the result files; see result_files.hpp. Test output is arbitrary
// bytes: nlohmann-json escapes control characters and, with its replacing
// error handler, turns bytes that are not UTF-8 into U+FFFD, so the files
// always parse.
#include "result_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

namespace grader {

using nlohmann::json;

namespace {

// Captured output in the files is for a human to glance at.
constexpr std::size_t output_limit = 8 * 1024;
constexpr std::size_t listed_changes_limit = 200;

std::string cut(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + fmt::format("\n[... {} more bytes]", text.size() - limit);
}

std::string dump(const json& document) {
  return document.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::vector<std::string> chapters_in(const std::vector<TestResult>& results) {
  std::vector<std::string> chapters;
  std::set<std::string> seen;
  for (const TestResult& r : results)
    if (seen.insert(r.chapter).second) chapters.push_back(r.chapter);
  return chapters;
}

// JSON has no NaN or infinity; three decimals are plenty for seconds.
json seconds(double value) {
  if (!std::isfinite(value)) return nullptr;
  return std::round(value * 1000) / 1000;
}

// {"plain": "pass", "thread": "sanitizer"}: each mode the test ran in.
json modes_json(const TestResult& r) {
  json modes = json::object();
  for (const auto& [mode, status] : r.modes) modes[mode] = status_name(status);
  return modes;
}

json test_json(const TestResult& r) {
  return {{"chapter", r.chapter},
          {"test_chapter", r.test_chapter},
          {"name", r.name},
          {"points_earned", r.points_earned},
          {"points_possible", r.points_possible},
          {"counted", r.counted},
          {"regression", r.regression},
          {"hidden", r.hidden},
          {"status", status_name(r.status)},
          {"modes", modes_json(r)},
          {"failed_mode", failed_mode(r)},
          {"exercise", r.exercise},
          {"seconds", seconds(r.seconds)},
          {"runs", r.runs},
          {"failed_runs", r.failed_runs},
          {"message", r.message},
          {"output", cut(r.output, output_limit)}};
}

json integrity_json(const GradingRun& run) {
  json findings = json::array();
  for (const Finding& f : run.integrity) findings.push_back({{"where", f.where}, {"what", f.what}});
  json changes = json::array();
  for (const ChangedFile& c : run.other_changes) {
    if (changes.size() == listed_changes_limit) break;
    changes.push_back({{"path", c.path}, {"how", c.how}});
  }
  return {{"findings", findings},
          {"other_changed_files", changes},
          {"other_changed_files_count", run.other_changes.size()},
          {"missing_files", run.missing_files},
          {"strict", run.strict},
          {"scan_error", run.scan_error},
          {"zeroed", zeroed_by_strict(run) || !run.scan_error.empty()}};
}

std::string gradescope_name(const TestResult& r) {
  if (r.hidden) return fmt::format("[{}] hidden: {}", r.chapter, r.name);
  if (r.regression)
    return fmt::format("[{}] regression, chapter {}: {}", r.chapter, r.test_chapter, r.name);
  return fmt::format("[{}] {}", r.chapter, r.name);
}

// "pass (plain, thread, address)", "sanitizer (thread)": which modes it
// passed in, or the one it failed in.
std::string status_and_modes(const TestResult& r) {
  std::string text = status_name(r.status);
  std::string failed = failed_mode(r);
  if (r.status != Status::pass) return failed.empty() ? text : text + " (" + failed + ")";
  std::string modes;
  for (const auto& [mode, status] : r.modes) modes += (modes.empty() ? "" : ", ") + mode;
  return r.modes.size() > 1 ? text + " (" + modes + ")" : text;
}

std::string gradescope_output(const TestResult& r) {
  std::string text = status_and_modes(r);
  if (r.regression && r.counted && r.status != Status::pass)
    text += fmt::format("\nThis is chapter {}'s test, and it fails on the chapter {} runtime: "
                        "what it checks was broken by the code of {}, and it counts against it.",
                        r.test_chapter, r.chapter, r.chapter);
  if (!r.message.empty()) text += "\n" + r.message;
  if (r.status != Status::pass && !r.output.empty())
    text += "\n\noutput:\n" + cut(r.output, output_limit);
  return text;
}

json modes_names(const std::vector<Sanitizer>& modes) {
  json names = json::array();
  for (Sanitizer mode : modes) names.push_back(mode_name(mode));
  return names;
}

// "plain, under ThreadSanitizer and under AddressSanitizer".
std::string modes_sentence(const std::vector<Sanitizer>& modes) {
  std::string text;
  for (std::size_t i = 0; i < modes.size(); ++i)
    text += (i == 0 ? "" : i + 1 == modes.size() ? " and " : ", ") + mode_phrase(modes[i]);
  return text;
}

json gradescope_test(const GradingRun& run, const TestResult& r) {
  bool zero = zeroed_by_strict(run) || !run.scan_error.empty();
  return {{"name", gradescope_name(r)},
          {"score", r.counted && !zero ? r.points_earned : 0},
          {"max_score", r.counted ? r.points_possible : 0},
          {"status", r.status == Status::pass ? "passed" : "failed"},
          {"output", gradescope_output(r)},
          // Hidden tests' names and failures are shown once grades are out.
          {"visibility", r.hidden ? "after_published" : "visible"}};
}

}  // namespace

bool zeroed_by_strict(const GradingRun& run) {
  return run.strict && !run.integrity.empty();
}

Score final_score(const GradingRun& run, const std::string& chapter) {
  Score score = counted_score(run.results, chapter);
  if (zeroed_by_strict(run) || !run.scan_error.empty()) score.earned = 0;
  return score;
}

std::string integrity_summary(const GradingRun& run) {
  std::string text;
  if (!run.scan_error.empty())
    text += "Integrity scan incomplete, so the submission is not scored (0): " + run.scan_error +
            "\n";
  if (!run.integrity.empty()) {
    text += "Integrity report: the submission does what only cheating needs:\n";
    for (const Finding& f : run.integrity) text += "  " + f.where + ": " + f.what + "\n";
    if (zeroed_by_strict(run)) text += "Scored 0 (--strict).\n";
  }
  if (!run.other_changes.empty()) {
    text += fmt::format("{} file(s) outside the starter's files differ from the course; "
                        "they were not used:\n",
                        run.other_changes.size());
    for (std::size_t i = 0; i < run.other_changes.size() && i < 20; ++i)
      text += "  " + run.other_changes[i].path + ": " + run.other_changes[i].how + "\n";
    if (run.other_changes.size() > 20) text += "  ...\n";
  }
  for (const std::string& missing : run.missing_files)
    text += "  missing from the submission (the starter's version was used): " + missing + "\n";
  return text;
}

std::string grader_json(const GradingRun& run) {
  Score total = final_score(run);
  json chapters = json::array();
  for (const std::string& chapter : chapters_in(run.results)) {
    Score score = final_score(run, chapter);
    chapters.push_back({{"chapter", chapter}, {"score", score.earned}, {"max_score", score.possible}});
  }
  json tests = json::array();
  for (const TestResult& r : run.results) tests.push_back(test_json(r));
  json document = {{"flavour", run.flavour},
                   {"sanitizer", modes_label(run.modes)},
                   {"modes", modes_names(run.modes)},
                   {"repeat", run.repeat},
                   {"sandbox", run.sandbox},
                   {"complete", run.complete},
                   {"score", total.earned},
                   {"max_score", total.possible},
                   {"chapters", chapters},
                   {"integrity", integrity_json(run)},
                   {"tests", tests}};
  return dump(document);
}

std::string gradescope_json(const GradingRun& run) {
  std::string summary;
  for (const std::string& chapter : chapters_in(run.results)) {
    Score score = final_score(run, chapter);
    summary += fmt::format("{}: {}/{}\n", chapter, score.earned, score.possible);
    std::string broke = what_broke(run.results, chapter);
    if (!broke.empty()) summary += "  " + broke + "\n";
  }
  Score total = final_score(run);
  summary += fmt::format("Score: {}/{}", total.earned, total.possible);
  if (run.modes.size() > 1)
    summary += fmt::format(" (each test run {}; it scores only if it passes in every one)",
                           modes_sentence(run.modes));
  if (!run.complete) summary += " (grading did not finish)";
  std::string integrity = integrity_summary(run);
  if (!integrity.empty()) summary += "\n\n" + integrity;
  json tests = json::array();
  for (const TestResult& r : run.results) tests.push_back(gradescope_test(run, r));
  json document = {{"score", total.earned},
                   {"output", summary},
                   {"visibility", "visible"},
                   {"tests", tests}};
  return dump(document);
}

// Result files may go to a folder others can write to (a shared /tmp): the
// temporary file is created there exclusively (mkstemp: O_EXCL, a name
// nobody can guess), never through a symbolic link, and only a regular file
// (or nothing) at `path` is replaced, so that a planted FIFO cannot hang
// the grader nor a planted link make it overwrite another file.
void replace_file(const std::string& path, const std::string& text) {
  struct stat target {};
  if (lstat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode))
    throw std::system_error(EEXIST, std::generic_category(),
                            "will not replace " + path + ": it is not a regular file");
  std::string temporary = path + ".XXXXXX";
  int fd = mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot write a file beside " + path);
  fchmod(fd, 0644);
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    written += static_cast<std::size_t>(n);
  }
  bool closed = close(fd) == 0;
  // rename replaces a link itself, never its target; the lstat above
  // refused anything but a regular file.
  if (written != text.size() || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    std::remove(temporary.c_str());
    throw std::system_error(error, std::generic_category(), "cannot write " + path);
  }
}

}  // namespace grader
