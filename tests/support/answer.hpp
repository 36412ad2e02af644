// answer(): the smallest task with an output, for tests that need a task
// to spawn, join or block on and care only that its 42 comes back.
#pragma once

#include "rt/rt.hpp"

namespace rt_test {

inline rt::Task<int> answer() { co_return 42; }

}  // namespace rt_test
