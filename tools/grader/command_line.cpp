// The grader's command line, described with CLI11 so that --help documents
// every option. Every value is checked here, before anything is built or
// run: a bad command line costs the caller nothing but a message.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "options.hpp"
#include "usage_error.hpp"

namespace grader {

namespace {

// Longer than any honest test needs, short enough that a typo is caught.
constexpr double min_timeout_seconds = 0.1;
constexpr double max_timeout_seconds = 3600;
constexpr int max_repeat = 1000;

struct Switches {
  std::vector<std::string> modes;
  bool no_count_regressions = false;
  bool sandbox = false;
  bool no_sandbox = false;
};

void describe(CLI::App& app, Options& o, Switches& s) {
  app.add_option("chapters", o.chapters,
                 "chapters to grade: 1, 1 3, 1-3, 01 (default: every chapter; with --grades, "
                 "the first chapter not at full marks at its last grade)")
      ->type_name("CHAPTER");
  app.add_flag("--all", o.all, "grade every chapter");
  app.add_option("--grades", o.grades_file,
                 "keep every chapter's last grade of chapters/ in FILE (scripts/grade: "
                 "build/grades.json, which scripts/status shows); not with --solutions, "
                 "--submission or --binary")
      ->type_name("FILE");
  app.add_option("--builddir", o.builddir, "the meson build directory")->capture_default_str()
      ->type_name("DIR");
  app.add_flag("--solutions", o.solutions, "grade solutions/ instead of chapters/");
  app.add_option("--sanitize", s.modes,
                 "build and run every test in MODE: plain, thread (ThreadSanitizer), address "
                 "(AddressSanitizer), or all three; repeatable; a test scores only if it passes "
                 "in every mode (default: plain; with --submission: all)")
      ->check(CLI::IsMember({"plain", "thread", "address", "all"}))
      ->allow_extra_args(false)
      ->type_name("MODE");
  app.add_option("--build-timeout", o.build_timeout,
                 "with --submission: seconds all of the submission's builds may take together "
                 "(every target, every mode; default 1800); any one compiler process gets at "
                 "most this, or 600, seconds of CPU, and 8 GiB of memory");
  app.add_option("--timeout", o.timeout, "seconds per test run, instead of the default")
      ->type_name("SECONDS");
  app.add_option("--repeat", o.repeat, "run each test N times; it passes only if all pass")
      ->type_name("N");
  app.add_flag("--count-regressions", o.count_regressions,
               "count earlier chapters' tests in the score (the default with --submission)");
  app.add_flag("--no-count-regressions", s.no_count_regressions,
               "with --submission: show earlier chapters' tests without counting them");
  app.add_flag("--own-tests", o.own_tests_only,
               "grade each chapter on its own tests only, without earlier chapters' (regressions)");
  app.add_option("--filter", o.filter, "only run tests whose name contains SUBSTRING")
      ->type_name("SUBSTRING");
  app.add_option("--binary", o.binaries,
                 "grade this test binary directly, without building (repeatable; needs --sources)")
      ->allow_extra_args(false)
      ->type_name("FILE");
  app.add_option("--sources", o.sources,
                 "the test sources --binary was built from: where its tests and points are read")
      ->allow_extra_args(false)
      ->type_name("FILE");
  app.add_option("--json", o.json_file, "write the complete results as JSON to FILE")
      ->type_name("FILE");
  app.add_option("--gradescope", o.gradescope_file, "write Gradescope's results.json to FILE")
      ->type_name("FILE");
  app.add_option("--submission", o.submission,
                 "grade the student repository DIR in a pristine copy of the course: only the "
                 "starter's files are taken from DIR")
      ->type_name("DIR");
  app.add_option("--hidden", o.hidden,
                 "also grade the hidden tests in DIR/NN-slug/*.cpp against the student's runtime")
      ->type_name("DIR");
  app.add_option("--workdir", o.workdir,
                 "where --submission and --hidden build their copy (default: BUILDDIR/submission)")
      ->type_name("DIR");
  app.add_flag("--sandbox", s.sandbox,
               "run tests as an unprivileged user, kill all they start (default when root)");
  app.add_flag("--no-sandbox", s.no_sandbox, "run tests as the grader's own user, even as root");
  app.add_flag("--strict", o.strict, "score 0 when the integrity report finds anything");
  app.add_flag("--first-failure", o.first_failure,
               "stop at the first test that fails and run no more, nor read what a test that "
               "ran out of time was doing (scripts/mutants: one failing test kills a mutant)");
  app.add_flag("--stop-at-failure", o.stop_at_failure,
               "stop after the first test that fails (not one of an exercise not started yet), "
               "and say so: what scripts/grade --watch does, for a quick answer");
  app.add_flag("--every-test", o.every_test,
               "print every test on a line of its own: tests stopped by an unfinished exercise "
               "are not grouped by exercise, nor regressions folded into one line");
  app.add_flag("--brief", o.brief,
               "show what went wrong for the first failure of each kind only (fail, crash, "
               "timeout, ...); the others get their line");
  app.add_flag("--build-only", o.build_only,
               "build every test binary grading needs, in every mode, and run no test "
               "(the Gradescope bundle's setup.sh)");
  app.add_flag("--points", o.points,
               "print each chapter's tests and points, read from the test sources, and exit");
}

void check_numbers(const Options& o) {
  // Below a tenth of a second no test could start; above an hour the
  // grader would look hung.
  if (o.timeout && !(std::isfinite(*o.timeout) && *o.timeout >= min_timeout_seconds &&
                     *o.timeout <= max_timeout_seconds))
    throw UsageError("--timeout must be a number of seconds from 0.1 to 3600");
  if (!(std::isfinite(o.build_timeout) && o.build_timeout >= 1 && o.build_timeout <= 86400))
    throw UsageError("--build-timeout must be a number of seconds from 1 to 86400");
  if (o.repeat < 1 || o.repeat > max_repeat)
    throw UsageError("--repeat must be a whole number from 1 to 1000");
}

// A result file must be writable before the first test runs, not found
// unwritable once the grading is done.
void check_writable(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  std::filesystem::path p(path);
  std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : ".";
  std::error_code error;
  if (std::filesystem::is_directory(p, error))
    throw UsageError(option + " " + path + ": is a directory");
  std::filesystem::file_status status = std::filesystem::symlink_status(p, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw UsageError(option + " " + path + ": not a regular file (a link, a device, a FIFO): "
                     "the grader replaces only regular files");
  if (!std::filesystem::is_directory(dir, error))
    throw UsageError(option + " " + path + ": the folder " + dir.string() + " does not exist");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(option + " " + path + ": cannot write in " + dir.string());
  if (access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0)
    throw UsageError(option + " " + path + ": the file is not writable");
}

void check_folder(const std::string& option, const std::string& path) {
  std::error_code error;
  if (!path.empty() && !std::filesystem::is_directory(path, error))
    throw UsageError(option + " " + path + ": no such folder");
}

// The grader makes its copy inside --workdir, and makes no folder above it:
// a mistyped path fails here instead of growing a tree of folders, as root.
void check_workdir(const std::string& path) {
  if (path.empty()) return;
  std::filesystem::path p(path);
  std::filesystem::path parent = p.has_parent_path() ? p.parent_path() : ".";
  std::error_code error;
  if (!std::filesystem::is_directory(p, error) && !std::filesystem::is_directory(parent, error))
    throw UsageError("--workdir " + path + ": neither it nor the folder " + parent.string() +
                     " exists (the grader creates at most the last folder)");
}

// A submission is the student's code: as root the grader runs its tests in
// the sandbox; without root it cannot, and says so rather than run them as
// the instructor without a word.
void check_sandbox_for_submission(const Options& o, bool no_sandbox_asked) {
  if (o.submission.empty() || o.sandbox || no_sandbox_asked) return;
  throw UsageError("--submission runs the student's code, and without root the grader cannot "
                   "sandbox it: run the grader as root (sudo), or give --no-sandbox to run the "
                   "tests as yourself");
}

void check_combinations(const Options& o) {
  if (!o.binaries.empty() && !o.chapters.empty())
    throw UsageError("chapters and --binary cannot be combined");
  if (!o.binaries.empty() && o.sources.empty())
    throw UsageError("--binary needs --sources: the test sources it was built from, where the "
                     "grader reads its tests and their points");
  if (o.binaries.empty() && !o.sources.empty())
    throw UsageError("--sources goes with --binary");
  if (!o.binaries.empty() && (!o.submission.empty() || !o.hidden.empty()))
    throw UsageError("--binary cannot be combined with --submission or --hidden");
  if (o.solutions && !o.submission.empty())
    throw UsageError("--solutions grades the course's own solutions: drop --submission");
  if (o.own_tests_only && o.count_regressions)
    throw UsageError("--own-tests and --count-regressions cannot be combined");
  if (!o.binaries.empty() && o.modes.size() > 1)
    throw UsageError("--binary runs a binary built in one mode: give --sanitize once");
  if (!o.binaries.empty() && o.build_only)
    throw UsageError("--build-only builds the course's tests: not with --binary");
  if (o.all && !o.chapters.empty())
    throw UsageError("--all grades every chapter: name chapters, or --all, not both");
  if (o.all && !o.binaries.empty()) throw UsageError("--all cannot be combined with --binary");
}

// The modes named, in the order they run (plain, thread, address), each once.
std::vector<Sanitizer> modes_named(const std::vector<std::string>& names, bool submission) {
  if (names.empty()) return submission ? every_mode() : std::vector<Sanitizer>{Sanitizer::none};
  auto named = [&names](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<Sanitizer> modes;
  for (Sanitizer mode : every_mode())
    if (named("all") || named(mode_name(mode))) modes.push_back(mode);
  return modes;
}

// The instructor grades finished work: a chapter's answer that breaks an
// earlier chapter's test loses those points. A student's own grade shows
// such tests apart, since stubs left mid-chapter break them too.
void choose_counting(Options& o, const Switches& s) {
  if (o.count_regressions && s.no_count_regressions)
    throw UsageError("--count-regressions and --no-count-regressions contradict each other");
  if (s.no_count_regressions && o.submission.empty())
    throw UsageError("--no-count-regressions goes with --submission (without it, earlier "
                     "chapters' tests are not counted unless --count-regressions is given)");
  o.count_regressions = o.count_regressions || (!o.submission.empty() &&
                                                !s.no_count_regressions && !o.own_tests_only);
}

}  // namespace

bool grades_kept(const Options& options) {
  return !options.grades_file.empty() && !options.solutions && options.submission.empty() &&
         options.hidden.empty() && options.binaries.empty();
}

Options parse_command_line(int argc, char** argv) {
  // Named, so that the usage line does not print the binary's full path.
  CLI::App app{"Builds and grades the course's chapters, one test per process.", "grader"};
  Options options;
  Switches switches;
  describe(app, options, switches);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    std::exit(app.exit(help));
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  options.modes = modes_named(switches.modes, !options.submission.empty());
  if (switches.sandbox && switches.no_sandbox)
    throw UsageError("--sandbox and --no-sandbox contradict each other");
  // Root is where instructors' platforms (Gradescope, CI) run the grader;
  // a student at their own machine is not root and keeps the quick mode.
  options.sandbox = switches.sandbox || (geteuid() == 0 && !switches.no_sandbox);
  check_numbers(options);
  check_combinations(options);
  choose_counting(options, switches);
  check_writable("--json", options.json_file);
  check_writable("--gradescope", options.gradescope_file);
  if (grades_kept(options)) check_writable("--grades", options.grades_file);
  check_folder("--submission", options.submission);
  check_folder("--hidden", options.hidden);
  check_workdir(options.workdir);
  check_sandbox_for_submission(options, switches.no_sandbox);
  return options;
}

}  // namespace grader
