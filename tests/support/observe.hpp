// OBSERVE(value): what a hidden test saw, reported to the grader, which
// compares it with what the same test saw on the reference solution, run
// by the grader in a process of its own with the same seed. A test that
// observes passes only if every observation matches, so its verdict does
// not rest on the record alone, which code that runs before main could
// forge: the expected values never enter the student's process or files.
//
//   TEST_CASE("the sum comes back through the join handles" * POINTS(2)) {
//     rt::Runtime runtime;
//     OBSERVE(runtime.block_on(sum_of_spawned(rt_test::observation_seed())));
//   }
//
// Observe what the runtime computed or decided (results, orders, counts),
// and make it depend on observation_seed(), a fresh number for every
// grade, so that no published output can be replayed. The observations
// must depend on nothing else (not timing, not addresses): the grader runs
// the reference twice and refuses a test whose two runs disagree. By hand,
// the seed is 1, or `--grader-seed=N` after the test's name.
#pragma once

#include <cstdint>
#include <string>

#include "show.hpp"  // how containers are written, as in failed checks

namespace rt_test {

// This run's seed (--grader-seed=N), or 1 when none was given.
std::uint64_t observation_seed();

// Records one observation, `what` naming it in the grader's report.
// Thread-safe; the order of the calls is part of what is compared.
void observe(const char* what, const std::string& value);

namespace detail {
// For grading_main.cpp: the seed, and every observation as lines
// "what<TAB>value\n" (tabs, newlines and backslashes escaped).
void set_observation_seed(std::uint64_t seed);
std::string observations();
}  // namespace detail

}  // namespace rt_test

#define OBSERVE(...) \
  ::rt_test::observe(#__VA_ARGS__, std::string(doctest::toString(__VA_ARGS__).c_str()))
