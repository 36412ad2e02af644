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
