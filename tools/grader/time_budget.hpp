// How long one run of one test may take before it counts as hung.
#pragma once

#include <optional>

#include "sanitizer.hpp"

namespace grader {

// `declared` is the test's own doctest::timeout (0 if none); `forced` is
// --timeout, which wins over everything.
double time_budget(double declared, Sanitizer sanitizer, std::optional<double> forced);

}  // namespace grader
