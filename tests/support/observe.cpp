// The observations of a hidden test; see observe.hpp.
#include "observe.hpp"

#include <mutex>

namespace rt_test {

namespace {

std::mutex g_mutex;
std::uint64_t g_seed = 1;
std::string g_observations;

// One line per observation, whatever the value holds.
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

}  // namespace

std::uint64_t observation_seed() {
  std::lock_guard lock(g_mutex);
  return g_seed;
}

void observe(const char* what, const std::string& value) {
  std::lock_guard lock(g_mutex);
  g_observations += escaped(what) + "\t" + escaped(value) + "\n";
}

namespace detail {

void set_observation_seed(std::uint64_t seed) {
  std::lock_guard lock(g_mutex);
  g_seed = seed;
}

std::string observations() {
  std::lock_guard lock(g_mutex);
  return g_observations;
}

}  // namespace detail

}  // namespace rt_test
