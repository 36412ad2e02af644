// Everything the command line says, parsed once into plain values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sanitizer.hpp"

namespace grader {

struct Options {
  std::vector<std::string> chapters;  // as typed: "1", "01", "1-3"; empty = see below
  bool all = false;  // --all: every chapter (what no chapters means without --grades)
  // Every chapter's last grade of the student's own work: kept here, and,
  // when no chapters are named, where the chapter to grade is chosen.
  std::string grades_file;
  std::string builddir = "build";
  bool solutions = false;  // grade solutions/ instead of chapters/
  // The modes every test runs in (--sanitize, repeatable): plain, under
  // ThreadSanitizer, under AddressSanitizer; a test scores only if it passes
  // in each. Plain alone by default; all three by default with --submission.
  std::vector<Sanitizer> modes = {Sanitizer::none};
  std::optional<double> timeout;  // seconds, replaces the computed budget
  double build_timeout = 1800;    // seconds per ninja call of a submission's build
  int repeat = 1;
  // Earlier chapters' tests count in the score: with --count-regressions,
  // and by default with --submission (--no-count-regressions: not).
  bool count_regressions = false;
  bool own_tests_only = false;  // skip earlier chapters' tests (regressions)
  std::string filter;                 // only tests whose name contains this
  std::vector<std::string> binaries;  // grade these directly, no build
  std::vector<std::string> sources;   // the test sources of --binary
  std::string json_file;
  std::string gradescope_file;
  // An instructor's run: the student's repository, graded in a pristine
  // copy of the course with only the starter's files taken from it.
  std::string submission;
  std::string hidden;   // a folder of hidden tests, NN-slug/*.cpp
  std::string workdir;  // where the pristine copy is built
  bool sandbox = false;
  bool strict = false;
  bool points = false;  // only print each chapter's tests and points
  bool build_only = false;  // build what grading needs in every mode, run nothing (setup.sh)
  bool first_failure = false;  // stop at the first test that fails (the mutation check)
  bool stop_at_failure = false;  // stop at the first test that fails, and say so (--watch)
  bool every_test = false;     // print every test on its own line, nothing folded
  bool brief = false;          // the details of only the first failure of each kind
};

// Whether --grades applies: the student's own chapters/, graded in place.
bool grades_kept(const Options& options);

// Throws UsageError on bad input; exits the process itself for --help.
Options parse_command_line(int argc, char** argv);

}  // namespace grader
