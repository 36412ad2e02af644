// Judging a finished test process; see verdict.hpp.
#include "verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "protocol.hpp"
#include "stuck_process.hpp"
#include "unfinished_exercise.hpp"

namespace grader {

namespace {

constexpr int context_lines = 10;

std::string signal_description(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  std::string name =
      abbreviation ? std::string("SIG") + abbreviation : fmt::format("signal {}", signal);
  return fmt::format("{} ({})", name, strsignal(signal));
}

// The line that says why a process died, when it printed one: a failed
// assertion, an uncaught exception, undefined behaviour. Shown first, so
// that a crash reads as its cause and not as doctest's trailer.
std::string cause_of_crash(const std::string& output) {
  static const char* const causes[] = {"Assertion", "grader-note: std::terminate",
                                       "terminate called", "what():", "runtime error:",
                                       "Sanitizer"};
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    for (const char* cause : causes)
      if (line.find(cause) != std::string::npos) return "\ncause: " + line;
    start = end + 1;
  }
  return "";
}

// What the test printed last often says where it was.
std::string with_tail(std::string message, const std::string& output) {
  std::string tail = last_lines(output, context_lines);
  if (!tail.empty()) message += "\nlast output:\n" + tail;
  return message;
}

std::optional<Verdict> sanitizer_verdict(const ChildOutcome& o, Sanitizer sanitizer) {
  std::string report = find_sanitizer_report(o.output);
  if (!report.empty()) return Verdict{Status::sanitizer, report};
  if (sanitizer != Sanitizer::none && o.exit_code == sanitizer_exit_code)
    return Verdict{Status::sanitizer,
                   "the sanitizer reported an error (its report is not in the kept output)"};
  return std::nullopt;
}

Verdict verdict_from_record(const ChildOutcome& o, const Record& record) {
  if (!record.passed) return {Status::fail, record.messages};
  if (o.exit_code != 0)
    return {Status::fail, with_tail(fmt::format("the test passed, but the process then exited "
                                                "with status {}",
                                                o.exit_code),
                                    o.output)};
  Verdict passed{Status::pass, {}};
  passed.observations = record.observations;
  return passed;
}

}  // namespace

namespace {

// Said when what the process was doing was not read (--first-failure, or
// a run after the first that failed): the three causes, none singled out.
constexpr const char unknown_hang[] =
    "What it was doing was not looked at: a busy loop, a deadlock, or a wait for a wake-up "
    "that never comes.";

Verdict timeout_verdict(const ChildOutcome& o, double budget_seconds) {
  std::string report = o.timeout_report.empty() ? std::string(unknown_hang) + "\n"
                                                : o.timeout_report;
  // A run stopped soon after an rt::Todo ran for less than its budget.
  double ran = std::min(o.seconds, budget_seconds);
  std::string what =
      o.stuck ? fmt::format("stopped after {:.1f} s, not at its {:.0f} s limit: every thread had slept "
                            "for {:.0f} s in a wait with no timeout, and nothing was left to wake "
                            "any of them (a deadlock or a lost wake-up).\n",
                            ran, budget_seconds,
                            std::chrono::duration<double>(StuckWatch::window).count())
              : fmt::format("still running after {:.1f} s, stopped.\n", ran);
  return {Status::timeout, with_tail(what + report.substr(0, report.size() - 1), o.output)};
}

Verdict run_verdict(const ChildOutcome& o, const std::string& token, Sanitizer sanitizer,
                    double budget_seconds) {
  if (o.timed_out) return timeout_verdict(o, budget_seconds);
  if (auto verdict = sanitizer_verdict(o, sanitizer)) return *verdict;
  if (o.signal != 0)
    return {Status::crash,
            with_tail("killed by " + signal_description(o.signal) + cause_of_crash(o.output),
                      o.output)};
  if (o.exit_code == 127 && o.output.find("grader: cannot execute") != std::string::npos)
    return {Status::error, o.output};
  if (auto record = parse_record(o.result, token)) return verdict_from_record(o, *record);
  return {Status::exited_early,
          with_tail(fmt::format("the process exited with status {} before the test finished "
                                "(exit() called from the code under test?)",
                                o.exit_code),
                    o.output)};
}

std::string how_it_ended(Status status) {
  switch (status) {
    case Status::fail: return "the test then failed";
    case Status::crash: return "the process then crashed";
    case Status::timeout: return "the test then waited for what the stub should have done";
    case Status::exited_early: return "the process then exited early";
    case Status::sanitizer: return "the sanitizer then reported an error";
    default: return "the test did not pass";
  }
}

}  // namespace

Verdict judge(const ChildOutcome& o, const std::string& token, Sanitizer sanitizer,
              double budget_seconds) {
  Verdict verdict = run_verdict(o, token, sanitizer, budget_seconds);
  if (verdict.status == Status::pass || verdict.status == Status::error) return verdict;
  verdict.exercise = unfinished_exercise(verdict.message, o.output);
  if (verdict.exercise.empty()) return verdict;
  verdict.message = fmt::format("exercise {} is not done yet: its stub threw rt::Todo, and {} "
                                "({}).\n\n{}",
                                verdict.exercise, how_it_ended(verdict.status),
                                status_name(verdict.status), verdict.message);
  verdict.status = Status::not_started;
  return verdict;
}

std::string last_lines(const std::string& text, int count) {
  std::size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  std::size_t start = end;
  for (int lines = 0; start > 0 && lines < count; --start)
    if (text[start - 1] == '\n' && ++lines == count) break;
  return text.substr(start, end - start);
}

}  // namespace grader
