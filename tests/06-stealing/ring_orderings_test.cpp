// Chapter 06: the ring's indices alone order its slots between threads.
// Each test hands the turn from one thread to the other through a relaxed
// flag, which orders nothing: whatever the second thread may safely read
// or overwrite, the ring's own acquire and release must have made safe.
// A plain run cannot see a missing order on this machine's memory model;
// ThreadSanitizer reports the slot's data race on every run.
#include <atomic>
#include <cstdint>
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
using rt::detail::Pushed;

namespace {

// Waits for `flag` without taking any order from it.
void spin_until_set(const std::atomic<bool>& flag) {
  while (!flag.load(std::memory_order_relaxed)) std::this_thread::yield();
}

}  // namespace

TEST_CASE("a stealer that sees the owner's new tail finds the tasks in their slots" * POINTS(1)) {
  FakeTasks tasks(4);
  Inject inject;
  LocalQueue<4> victim, thief;
  std::atomic<bool> pushed{false};
  Header* taken = nullptr;
  std::uint32_t stolen = 0;
  // Started before the pushes, so that starting it orders nothing after.
  std::thread stealer([&] {
    spin_until_set(pushed);
    taken = victim.steal_into(thief, stolen);
  });
  for (std::size_t i = 0; i < 3; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  pushed.store(true, std::memory_order_relaxed);
  stealer.join();
  CHECK(stolen == 2);
  CHECK(tasks.id(taken) == 1);
  CHECK(tasks.drain(thief) == std::vector<std::size_t>{0});
  CHECK(tasks.drain(victim) == std::vector<std::size_t>{2});
}

TEST_CASE("an owner reuses the slots a steal emptied only after the stealer has read them" * POINTS(1)) {
  FakeTasks tasks(6);
  Inject inject;
  LocalQueue<4> victim, thief;
  std::atomic<bool> full{false};
  std::atomic<bool> stole{false};
  Header* taken = nullptr;
  std::uint32_t stolen = 0;
  std::thread stealer([&] {
    spin_until_set(full);
    taken = victim.steal_into(thief, stolen);  // reads slots 0 and 1
    stole.store(true, std::memory_order_relaxed);
  });
  for (std::size_t i = 0; i < 4; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  full.store(true, std::memory_order_relaxed);
  spin_until_set(stole);
  // The ring has room again where the steal was: slots 0 and 1.
  REQUIRE(victim.push_back_or_overflow(tasks[4], inject) == Pushed::local);
  REQUIRE(victim.push_back_or_overflow(tasks[5], inject) == Pushed::local);
  stealer.join();
  CHECK(stolen == 2);
  CHECK(tasks.id(taken) == 1);
  CHECK(tasks.drain(thief) == std::vector<std::size_t>{0});
  CHECK(tasks.drain(victim) == std::vector<std::size_t>{2, 3, 4, 5});
  CHECK(inject.is_empty());
}
