// The search: runs executions one after another, each with the next
// choices, until one fails or none is left; and the report. loom's
// model.rs (Builder::check).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>

#include "execution.hpp"
#include "model/sync.hpp"

namespace model {

namespace {

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

// A failed execution's threads stay parked in its body: it is kept, and
// so are they, until the process ends.
std::vector<std::unique_ptr<detail::Execution>>& kept = *new std::vector<std::unique_ptr<detail::Execution>>;

std::uint64_t next_serial = 1;

}  // namespace

std::string Report::summary() const {
  char seconds_text[32];
  std::snprintf(seconds_text, sizeof seconds_text, "%.2f s", seconds);
  std::string text = "model: " + with_commas(executions) + (executions == 1 ? " execution, " : " executions, ") + mode;
  if (!failed && !complete && mode.rfind("every", 0) == 0) text += " (stopped at a limit before the end)";
  return text + ", " + seconds_text;
}

std::string Report::describe() const {
  if (!failed) return summary() + "\n";
  std::string text = "model: " + kind + ": " + message + "\n";
  text += "the failing execution, step by step (tN is thread N; t0 runs the body):\n" + schedule;
  text += "replay exactly this execution: MODEL_REPLAY=" + replay + "\n";
  return text + summary() + "\n";
}

thread::id this_thread::get_id() noexcept {
  detail::Execution* execution = detail::current();
  return execution ? execution->self() : -1;
}

void check(bool ok, const char* what, model::Where where) {
  if (ok) return;
  const char* file = where.file_name();
  if (const char* slash = std::strrchr(file, '/')) file = slash + 1;
  std::string message = std::string(what) + " (at " + file + ":" + std::to_string(where.line()) + ")";
  if (detail::Execution* execution = detail::current()) execution->fail("check failed", message);
  throw std::logic_error("model::check failed outside a model body: " + message);
}

void yield_now(model::Where where) {
  if (detail::Execution* execution = detail::current()) execution->yield(where);
}

int threads_running() {
  detail::Execution* execution = detail::current();
  return execution ? execution->threads_running() : 0;
}

Report explore(const std::function<void()>& body, const Options& given) {
  Options options = given;
  if (options.replay.empty()) {
    if (const char* replay = std::getenv("MODEL_REPLAY")) options.replay = replay;
  }
  Report report;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  detail::Path path;
  bool replay = !options.replay.empty();
  if (replay && !path.decode(options.replay)) {
    report.failed = true;
    report.kind = "bad replay string";
    report.message = "'" + options.replay + "' is not a replay string (they start with v1.)";
    return report;
  }
  bool random = options.mode == Options::Mode::random && !replay;
  if (replay) {
    report.mode = "the one execution MODEL_REPLAY names";
  } else if (random) {
    report.mode = "random schedules (PCT, depth " + std::to_string(options.pct_depth) + ", seed " +
                  std::to_string(options.seed) + ")";
  } else {
    report.mode = "every schedule with at most " + std::to_string(options.preemption_bound) + " preemption" +
                  (options.preemption_bound == 1 ? "" : "s");
  }
  if (random) options.mode = Options::Mode::random;
  std::mt19937_64 rng(options.seed);
  std::size_t pct_length = 50;  // steps with a choice, as long as the longest run so far
  for (;;) {
    std::vector<int> priorities;
    std::vector<std::size_t> change_points;
    if (random) {
      path.randomize(rng());
      priorities.resize(detail::max_threads);
      std::iota(priorities.begin(), priorities.end(), 1);
      std::shuffle(priorities.begin(), priorities.end(), rng);
      for (int i = 1; i < options.pct_depth; ++i) change_points.push_back(1 + rng() % pct_length);
    }
    path.rewind();
    auto execution = std::make_unique<detail::Execution>(next_serial++, path, options, priorities, change_points);
    execution->run(body);
    ++report.executions;
    if (execution->failed()) {
      report.failed = true;
      report.kind = execution->failure_kind();
      report.message = execution->failure_message();
      report.schedule = execution->schedule_text();
      report.replay = path.encode();
      kept.push_back(std::move(execution));
      break;
    }
    if (replay) break;
    if (random) {
      pct_length = std::max(pct_length, execution->pct_steps());
      if (report.executions >= static_cast<std::uint64_t>(options.pct_runs)) {
        report.complete = true;
        break;
      }
    } else if (!path.advance()) {
      report.complete = true;
      break;
    }
    if (report.executions >= options.max_executions || elapsed() > options.max_seconds) break;
  }
  report.seconds = elapsed();
  return report;
}

}  // namespace model
