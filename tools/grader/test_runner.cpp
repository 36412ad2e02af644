// Running test processes; see test_runner.hpp.
#include "test_runner.hpp"

#include <fmt/format.h>

#include <memory>

#include "child_process.hpp"
#include "hang_diagnosis.hpp"
#include "protocol.hpp"
#include "reference_run.hpp"
#include "stuck_process.hpp"
#include "time_budget.hpp"
#include "unfinished_exercise.hpp"
#include "verdict.hpp"

namespace grader {

SingleRun run_once(const std::string& binary, const DeclaredTest& test,
                   const RunSettings& settings, RunArea& area, const std::string& seed,
                   Whose whose) {
  bool sandboxed = whose == Whose::student && area.identity();
  std::string token = make_token();
  double budget = time_budget(test.declared_timeout, settings.sanitizer, settings.timeout);
  std::string scratch = area.scratch();
  ChildRequest request;
  // The token travels in argv, which main() reads and wipes first thing:
  // code that runs before main would need /proc or glibc's internals to
  // find it, and the integrity scan looks for both.
  request.argv = {binary, "--run", test.name, "--grader-token=" + token};
  if (!seed.empty()) request.argv.push_back("--grader-seed=" + seed);
  request.environment = sanitizer_environment(settings.sanitizer);
  // In its own mount namespace the scratch folder is the test's /tmp.
  bool private_tmp = sandboxed && area.private_tmp();
  std::string home = private_tmp ? "/tmp" : scratch;
  request.environment.emplace_back("HOME", home);
  request.environment.emplace_back("TMPDIR", home);
  request.result_channel = true;
  request.working_dir = scratch;
  if (sandboxed) request.run_as = area.identity();
  if (private_tmp) request.private_tmp = scratch;
  // The sanitizers reserve terabytes of address space up front, so only a
  // plain run is held to a memory limit this way; theirs is in their options.
  if (sandboxed && settings.sanitizer == Sanitizer::none)
    request.address_space = sandbox_address_space;
  request.kill_descendants = true;
  request.timeout = std::chrono::duration<double>(budget);
  request.marker = todo_thrown_note;
  request.marker_grace = std::chrono::seconds(todo_grace_seconds);
  if (settings.diagnose_hangs) request.on_timeout = diagnose_hang;
  // A test that sleeps for good is stopped in seconds, not at its limit.
  auto watch = std::make_shared<StuckWatch>();
  request.stuck = [watch](pid_t pid) { return watch->stuck(pid); };
  ChildOutcome outcome = run_child(request);
  area.remove_scratch(scratch);
  return {judge(outcome, token, settings.sanitizer, budget), outcome.output, outcome.seconds};
}

TestResult run_test(const std::string& binary, const DeclaredTest& test,
                    const RunSettings& settings, RunArea& area, const Reference* reference) {
  TestResult result;
  result.name = test.name;
  result.points_possible = test.points;
  result.status = Status::pass;
  std::optional<SingleRun> first_failure, last;
  for (int i = 0; i < settings.repeat; ++i) {
    // Only the run whose failure is shown reads what a hang was doing.
    RunSettings once = settings;
    once.diagnose_hangs = settings.diagnose_hangs && !first_failure;
    SingleRun run = run_once(binary, test, once, area, reference ? reference->seed : "",
                             Whose::student);
    if (reference && run.verdict.status == Status::pass)
      if (auto mismatch = observation_mismatch(run.verdict.observations, reference->observations))
        run.verdict = Verdict{Status::fail, *mismatch};
    ++result.runs;
    result.seconds += run.seconds;
    if (run.verdict.status != Status::pass) {
      ++result.failed_runs;
      if (!first_failure) first_failure = run;
    }
    last = run;
  }
  // A failing test is shown through its first failure; a passing one
  // through its last run.
  const SingleRun& shown = first_failure ? *first_failure : *last;
  result.status = shown.verdict.status;
  result.message = shown.verdict.message;
  result.exercise = shown.verdict.exercise;
  result.output = shown.output;
  if (first_failure && settings.repeat > 1)
    result.message = fmt::format("failed {} of {} runs; the first failure:\n{}", result.failed_runs,
                                 result.runs, result.message);
  result.points_earned = result.status == Status::pass ? test.points : 0;
  result.modes = {{mode_name(settings.sanitizer), result.status}};
  return result;
}

namespace {

// What a failure in one of several modes says first: where it failed.
std::string mode_failure(Sanitizer mode, const std::vector<std::string>& passed_in) {
  std::string text = "failed " + mode_phrase(mode);
  for (std::size_t i = 0; i < passed_in.size(); ++i)
    text += (i == 0 ? " (it passed " : i + 1 == passed_in.size() ? " and " : ", ") + passed_in[i];
  return text + (passed_in.empty() ? "" : ")");
}

}  // namespace

TestResult run_test_in_modes(const std::vector<ModeBinary>& binaries, const DeclaredTest& test,
                             RunSettings settings, RunArea& area,
                             const Reference* reference) {
  TestResult total;
  std::vector<std::string> passed_in;
  double seconds = 0;
  for (const ModeBinary& binary : binaries) {
    settings.sanitizer = binary.mode;
    TestResult result = run_test(binary.path, test, settings, area, reference);
    seconds += result.seconds;
    std::vector<std::pair<std::string, Status>> modes = total.modes;
    modes.push_back(result.modes.front());
    total = std::move(result);
    total.modes = std::move(modes);
    if (total.status != Status::pass) {
      if (binaries.size() > 1)
        total.message = mode_failure(binary.mode, passed_in) + ":\n" + total.message;
      break;
    }
    passed_in.push_back(mode_phrase(binary.mode));
  }
  // Runs stay those of the mode shown (--repeat's count); the time is all of it.
  total.seconds = seconds;
  return total;
}

}  // namespace grader
