// consume(units): a task that spends `units` of its budget, one
// consume_budget at a time, and yields whenever the budget runs out.
#pragma once

#include <cstddef>

#include "rt/rt.hpp"

namespace rt_test {

inline rt::Task<> consume(std::size_t units) {
  for (std::size_t i = 0; i < units; ++i) co_await rt::coop::consume_budget();
}

}  // namespace rt_test
