// Runs one test case of one binary, in a process of its own, as many times
// as --repeat asks, and sums the runs up into a TestResult.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sandbox.hpp"
#include "sanitizer.hpp"
#include "test_catalog.hpp"
#include "test_result.hpp"
#include "verdict.hpp"

namespace grader {

struct RunSettings {
  Sanitizer sanitizer = Sanitizer::none;
  std::optional<double> timeout;  // --timeout
  int repeat = 1;
  // Read what a test that runs out of time was doing (hang_diagnosis.hpp):
  // a couple of seconds per hang, which only a reader of the report needs.
  bool diagnose_hangs = true;
};

struct Reference;  // reference_run.hpp

// Whose code a run runs: a student's (as the sandbox's user when the area
// has one, with its limits) or the hidden tests' reference, the course's
// own code (as the grader).
enum class Whose { student, reference };

struct SingleRun {
  Verdict verdict;
  std::string output;
  double seconds = 0;
};

// One run of one test case, in a scratch folder of `area`; `seed`, when
// not empty, is for its observations (tests/support/observe.hpp). With
// settings.diagnose_hangs, a run that times out is looked at (it takes a
// moment).
SingleRun run_once(const std::string& binary, const DeclaredTest& test,
                   const RunSettings& settings, RunArea& area, const std::string& seed,
                   Whose whose);

// Fills in status, message, output, seconds, runs, failed_runs and the
// points earned; the caller fills in who the test belongs to. `binary` is
// the private copy to run, installed in `area`. With a `reference` (a
// hidden test), every run gets its seed and passes only if it observed
// what the reference did.
TestResult run_test(const std::string& binary, const DeclaredTest& test,
                    const RunSettings& settings, RunArea& area,
                    const Reference* reference = nullptr);

// One mode's private copy of a test binary.
struct ModeBinary {
  Sanitizer mode = Sanitizer::none;
  std::string path;
};

// The test in each mode in turn (settings.sanitizer is each one's): it
// passes only if it passes in every mode. The first mode it fails in is
// the result, its message saying which mode that was; the modes after it
// are not run, since the test has lost its points already.
TestResult run_test_in_modes(const std::vector<ModeBinary>& binaries, const DeclaredTest& test,
                             RunSettings settings, RunArea& area,
                             const Reference* reference = nullptr);

}  // namespace grader
