// What every graded test file includes: doctest, and POINTS(n), which
// declares how many points a test case is worth, once, where it is written:
//
//   TEST_CASE("spawned tasks run to completion" * POINTS(2)) { ... }
//
// The grader reads the tests and their points from these sources (see
// tools/grader/test_catalog.hpp), never from a binary it grades, so there is
// no second table to keep in step and nothing compiled can change them.
// Keep the form: a string literal name, then `* POINTS(n)` with n in 1..100,
// optionally `* doctest::timeout(seconds)`.
#pragma once

#include <doctest/doctest.h>

#include "observe.hpp"  // OBSERVE(value), for hidden tests
#include "show.hpp"     // values in failed checks, containers included

#define POINTS(n) doctest::description("points:" #n)
