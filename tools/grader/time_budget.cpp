// Test time budgets; see time_budget.hpp.
#include "time_budget.hpp"

#include <thread>

namespace grader {

namespace {

// Generous on purpose: a hung test costs this much, a slow-but-correct one
// that is cut short costs a student points.
constexpr double default_seconds = 10;

// Tests of a concurrent runtime start threads; with fewer cores than that
// they take turns, so the budget grows as the machine shrinks.
double machine_factor() {
  unsigned cores = std::thread::hardware_concurrency();
  if (cores == 0 || cores >= 4) return 1;
  return 4.0 / cores;
}

}  // namespace

double time_budget(double declared, Sanitizer sanitizer, std::optional<double> forced) {
  if (forced) return *forced;
  double seconds = (declared > 0 ? declared : default_seconds) * machine_factor();
  // Instrumented code runs several times slower.
  if (sanitizer != Sanitizer::none) seconds *= 3;
  return seconds;
}

}  // namespace grader
