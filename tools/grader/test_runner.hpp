// Runs one test case of one binary, in a process of its own, as many times
// as --repeat asks, and sums the runs up into a TestResult.
#pragma once

#include <optional>
#include <string>

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

// Fills in status, message, output, seconds, runs, failed_runs and the
// points earned; the caller fills in who the test belongs to. `binary` is
// the private copy to run, installed in `area`.
TestResult run_test(const std::string& binary, const DeclaredTest& test,
                    const RunSettings& settings, RunArea& area);

}  // namespace grader
