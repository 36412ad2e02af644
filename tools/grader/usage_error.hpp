// A mistake in how the grader was called (an unknown chapter, a missing
// manifest): reported as one clear message and exit status 2, never as a
// score.
#pragma once

#include <stdexcept>

namespace grader {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace grader
