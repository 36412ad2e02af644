// The grader's command line, described with CLI11 so that --help documents
// every option.
#include <CLI/CLI.hpp>

#include <cstdlib>

#include "options.hpp"
#include "usage_error.hpp"

namespace grader {

namespace {

void describe(CLI::App& app, Options& o, std::string& sanitizer) {
  app.add_option("chapters", o.chapters,
                 "chapters to grade: 1, 1 3, 1-3, 01 (default: every chapter)");
  app.add_option("--builddir", o.builddir, "the meson build directory")->capture_default_str();
  app.add_flag("--solutions", o.solutions, "grade solutions/ instead of chapters/");
  app.add_option("--sanitize", sanitizer, "build and run under a sanitizer")
      ->check(CLI::IsMember({"thread", "address"}));
  app.add_option("--timeout", o.timeout, "seconds per test run, instead of the default")
      ->check(CLI::PositiveNumber);
  app.add_option("--repeat", o.repeat, "run each test N times; it passes only if all pass")
      ->check(CLI::Range(1, 100000));
  app.add_flag("--count-regressions", o.count_regressions,
               "count earlier chapters' tests in the score");
  app.add_flag("--own-tests", o.own_tests_only,
               "grade each chapter on its own tests only, without earlier chapters' (regressions)");
  app.add_option("--filter", o.filter, "only run tests whose name contains SUBSTRING");
  app.add_option("--binary", o.binaries,
                 "grade this test binary directly, without building (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--json", o.json_file, "write the complete results as JSON to FILE");
  app.add_option("--gradescope", o.gradescope_file, "write Gradescope's results.json to FILE");
}

}  // namespace

Options parse_command_line(int argc, char** argv) {
  CLI::App app{"Builds and grades the course's chapters, one test per process."};
  Options options;
  std::string sanitizer;
  describe(app, options, sanitizer);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    std::exit(app.exit(help));
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  options.sanitizer = sanitizer_from_name(sanitizer);
  if (options.own_tests_only && options.count_regressions)
    throw UsageError("--own-tests and --count-regressions cannot be combined");
  if (!options.binaries.empty() && !options.chapters.empty())
    throw UsageError("chapters and --binary cannot be combined");
  return options;
}

}  // namespace grader
