// What a model test includes: model::explore, run as a graded check. The
// body runs under every schedule within the bound (the runtime is built
// against the model checker here, so its atomics, locks and threads are
// the checker's); a failing execution fails the test with its schedule
// and the string that replays it. See the book's appendix, "The model
// checker".
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "graded.hpp"
#include "model/model.hpp"
#include "model/sync.hpp"

namespace rt_test {

// Explores body; a failure fails the test case with the whole report. The
// summary line (how many executions) is printed either way.
inline model::Report explore(const std::function<void()>& body, model::Options options = {}) {
  model::Report report = model::explore(body, options);
  std::printf("%s\n", report.summary().c_str());
  if (report.failed) {
    std::string binary = doctest::getContextOptions()->binary_name.c_str();
    std::string text = report.describe() + "to run it again: MODEL_REPLAY=" + report.replay + " " + binary +
                       " --run '<this test's name>'";
    FAIL_CHECK(text);
  }
  return report;
}

}  // namespace rt_test
