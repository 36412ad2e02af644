// The reference a hidden test is judged against. The test reports what it
// observed (OBSERVE, tests/support/observe.hpp); the grader runs the same
// test built against the reference solution, in a process of its own that
// the student's code never shares, with the same fresh seed, and the
// student's run passes only if it observed the same. A record forged by
// code that runs before main says "pass" but cannot say what the test
// would have seen: the expected values never enter the student's process
// or files. Visible tests keep the record alone: their expectations are in
// the student's hands anyway.
#pragma once

#include <optional>
#include <string>

#include "sandbox.hpp"
#include "test_catalog.hpp"
#include "test_runner.hpp"

namespace grader {

struct Reference {
  std::string seed;          // passed to both runs
  std::string observations;  // the reference's; empty when the test observes nothing
  std::string problem;       // set when no reference could be taken: the test cannot score
};

// Runs `binary` (the hidden tests built against the reference solution,
// installed where only the grader can run it) twice with one fresh seed,
// as the grader's own user, in a scratch folder of `area`: it is the
// course's code and the instructor's. Both runs must pass and observe the
// same, or the reference has a problem.
Reference take_reference(const std::string& binary, const DeclaredTest& test,
                         const RunSettings& settings, RunArea& area);

// Why `observed` is not `expected`, without saying what was expected; or
// nothing when they are the same.
std::optional<std::string> observation_mismatch(const std::string& observed,
                                                const std::string& expected);

}  // namespace grader
