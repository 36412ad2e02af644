// An example hidden test for chapter 01 (see ../README.md): the same
// promises as the visible tests, asked in a way the student has not seen.
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> count_down(int n) {
  if (n == 0) co_return 0;
  co_await rt::yield_now();
  co_return 1 + co_await count_down(n - 1);
}

rt::Task<long> spawn_many(int tasks) {
  std::vector<rt::JoinHandle<int>> handles;
  for (int i = 0; i < tasks; ++i) handles.push_back(rt::spawn(count_down(i % 7)));
  long total = 0;
  for (auto& handle : handles) total += co_await handle;
  co_return total;
}

}  // namespace

TEST_CASE("a thousand yielding tasks all finish with their results" * POINTS(2)) {
  rt::Runtime runtime;
  long expected = 0;
  for (int i = 0; i < 1000; ++i) expected += i % 7;
  CHECK(runtime.block_on(spawn_many(1000)) == expected);
}

TEST_CASE("a task spawned from a spawned task is joined through both" * POINTS(1)) {
  rt::Runtime runtime;
  int result = runtime.block_on([]() -> rt::Task<int> {
    auto outer = rt::spawn([]() -> rt::Task<int> {
      auto inner = rt::spawn(count_down(5));
      co_return 10 + co_await inner;
    }());
    co_return co_await outer;
  }());
  CHECK(result == 15);
}
