// What every graded test file includes: doctest, and POINTS(n), which
// declares how many points a test case is worth, once, where it is written:
//
//   TEST_CASE("spawned tasks run to completion" * POINTS(2)) { ... }
//
// The grader reads the points back from the test binary (`--list`), so
// there is no second table to keep in step.
#pragma once

#include <doctest/doctest.h>

#include "show.hpp"  // values in failed checks, containers included

#define POINTS(n) doctest::description("points:" #n)
