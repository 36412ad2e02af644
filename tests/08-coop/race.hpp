// Chapter 08's measure: task A awaits `total` operations of one kind, all
// ready at once; task B, spawned right after it, records how many A had
// done when B first ran. On a current-thread runtime (or a one-worker one)
// that is how far A got before it yielded.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

#include "rt/rt.hpp"

namespace ch08 {

// `operation(i)` is the i-th operation of A: a task that awaits one ready
// resource.
using Operation = std::function<rt::Task<>(std::size_t)>;

inline std::size_t progress_when_the_other_ran(rt::Runtime& runtime, std::size_t total, Operation operation) {
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> seen{0};
  runtime.block_on([&]() -> rt::Task<> {
    auto a = rt::spawn([&]() -> rt::Task<> {
      for (std::size_t i = 0; i < total; ++i) {
        co_await operation(i);
        done.fetch_add(1);
      }
    });
    auto b = rt::spawn([&]() -> rt::Task<> {
      seen = done.load();
      co_return;
    });
    co_await a;
    co_await b;
  }());
  return seen.load();
}

inline rt::Runtime current_thread() { return rt::Builder::new_current_thread().build(); }

}  // namespace ch08
