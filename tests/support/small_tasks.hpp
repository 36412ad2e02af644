// Small coroutines that several tests await: a chain of nested awaits, and
// a task that yields a given number of times.
#pragma once

#include "rt/rt.hpp"

namespace rt_test {

// n tasks, each awaiting the next: the output is n.
inline rt::Task<int> depth(int n) {
  if (n == 0) co_return 0;
  co_return 1 + co_await depth(n - 1);
}

// Yields n times, then ends: n more trips through the run queue.
inline rt::Task<> yield_times(int n) {
  for (int i = 0; i < n; ++i) co_await rt::yield_now();
}

}  // namespace rt_test
