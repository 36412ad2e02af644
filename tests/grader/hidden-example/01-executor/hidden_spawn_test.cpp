// An example hidden test for chapter 01 (see ../README.md): the same
// promises as the visible tests, asked in a way the student has not seen.
// It checks nothing itself: it observes (OBSERVE) what the runtime
// computed from this grade's seed, and the grader compares that with what
// the reference solution computed from the same seed, in a process of its
// own. The expected values are in neither this file nor the student's
// process.
#include <cstdint>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> count_down(int n) {
  if (n == 0) co_return 0;
  co_await rt::yield_now();
  co_return 1 + co_await count_down(n - 1);
}

rt::Task<long> spawn_many(int tasks, int depth) {
  std::vector<rt::JoinHandle<int>> handles;
  for (int i = 0; i < tasks; ++i) handles.push_back(rt::spawn(count_down(i % depth)));
  long total = 0;
  for (auto& handle : handles) total += co_await handle;
  co_return total;
}

}  // namespace

TEST_CASE("a thousand yielding tasks all finish with their results" * POINTS(2)) {
  std::uint64_t seed = rt_test::observation_seed();
  int tasks = 1000 + static_cast<int>(seed % 97);
  int depth = 3 + static_cast<int>(seed / 97 % 11);
  rt::Runtime runtime;
  OBSERVE(runtime.block_on(spawn_many(tasks, depth)));
}

TEST_CASE("a task spawned from a spawned task is joined through both" * POINTS(1)) {
  int depth = static_cast<int>(rt_test::observation_seed() % 13);
  rt::Runtime runtime;
  int result = runtime.block_on([](int depth) -> rt::Task<int> {
    auto outer = rt::spawn([](int depth) -> rt::Task<int> {
      auto inner = rt::spawn(count_down(depth));
      co_return 10 + co_await inner;
    }(depth));
    co_return co_await outer;
  }(depth));
  OBSERVE(result);
}
