// The list of graded tests and their points, read from the course's test
// sources (tests/NN-slug/*.cpp), never from a binary built with student
// code in it: what a test is worth is decided where it is written,
//
//   TEST_CASE("spawned tasks run to completion" * POINTS(2)) { ... }
//
// and nothing the student compiles can add a test, change its points or
// hide one.
#pragma once

#include <string>
#include <vector>

namespace grader {

// Points are small by design; a bound keeps every total far from overflow.
inline constexpr int max_points_per_test = 100;

struct DeclaredTest {
  std::string name;
  int points = 0;
  double declared_timeout = 0;  // seconds from doctest::timeout(x); 0 when none
  std::string file;
  int line = 0;
};

// Every TEST_CASE in `files`, in file order. Throws UsageError naming the
// file and line when a test case has no POINTS(n), points out of range, a
// name the grader cannot select exactly, or a name used twice.
std::vector<DeclaredTest> declared_tests(const std::vector<std::string>& files);

// The test sources of one chapter: <dir>/*.cpp, in the order the folder's
// meson.build lists them (the rest after, by name). Empty when the
// directory does not exist.
std::vector<std::string> test_sources_in(const std::string& dir);

}  // namespace grader
