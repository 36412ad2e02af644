// Chapter 06: the owner pushing and popping while three threads steal, on
// a ring of 4 where every operation meets another: no task is lost, none
// is handed out twice. Bounded: a fixed number of pushes.
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "fake_tasks.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"

using rt::detail::Header;
using rt::detail::Inject;
using rt::detail::LocalQueue;

TEST_CASE("an owner pushing and popping while three stealers steal loses no task and runs none twice" * POINTS(2)) {
  constexpr std::size_t count = 20000;
  constexpr int stealers = 3;
  FakeTasks tasks(count);
  auto taken = std::make_unique<std::atomic<int>[]>(count);
  auto take = [&](Header* task) { taken[tasks.id(task)].fetch_add(1, std::memory_order_relaxed); };
  Inject inject;  // where the owner's overflow goes
  LocalQueue<4> ring;
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> steals{0};

  std::vector<std::thread> threads;
  for (int s = 0; s < stealers; ++s) {
    threads.emplace_back([&] {
      LocalQueue<4> own;
      for (;;) {
        bool finished = done.load(std::memory_order_acquire);
        std::uint32_t stolen = 0;
        if (Header* task = ring.steal_into(own, stolen)) {
          steals.fetch_add(1, std::memory_order_relaxed);
          take(task);
          while (Header* more = own.pop()) take(more);
        } else if (finished) {
          return;  // the owner is done and there was nothing left
        }
      }
    });
  }
  for (std::size_t i = 0; i < count; ++i) {
    ring.push_back_or_overflow(tasks[i], inject);
    if (i % 3 == 0) {
      if (Header* task = ring.pop()) take(task);
    }
  }
  done.store(true, std::memory_order_release);
  for (auto& thread : threads) thread.join();
  while (Header* task = ring.pop()) take(task);
  while (Header* task = inject.pop()) take(task);

  std::size_t lost = 0, twice = 0;
  for (std::size_t i = 0; i < count; ++i) {
    int n = taken[i].load(std::memory_order_relaxed);
    if (n == 0) ++lost;
    if (n > 1) ++twice;
  }
  CHECK(lost == 0);
  CHECK(twice == 0);
  INFO("steals: " << steals.load());
}
