// Chapter 06: a steal, by itself: half of the victim's ring, rounded up,
// one of them to run at once; never into a ring more than half full; never
// while another steal is in progress, which also keeps the owner from
// overwriting the slots being copied.
#include <atomic>
#include <cstdint>
#include <latch>
#include <thread>
#include <vector>

#include "fake_tasks.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"
#include "scoped_hook.hpp"

using rt::detail::Header;
using rt::detail::Inject;
using rt::detail::LocalQueue;
using rt::detail::Pushed;

namespace {

// Pauses the first stealer that reaches the hook until released.
struct Pause {
  std::latch reached{1};
  std::latch release{1};
};
std::atomic<Pause*> pause_next{nullptr};

void pause_in_steal() {
  if (Pause* p = pause_next.exchange(nullptr)) {
    p->reached.count_down();
    p->release.wait();
  }
}

struct Hook : rt_test::ScopedHook<void (*)()> {
  Hook() : ScopedHook(rt::detail::during_steal, &pause_in_steal) {}
};

}  // namespace

TEST_CASE("a steal takes half of a ring rounded up and hands one task to run now" * POINTS(2)) {
  FakeTasks tasks(8);
  Inject inject;
  LocalQueue<8> victim, thief;
  for (std::size_t i = 0; i < 5; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  std::uint32_t stolen = 0;
  // 5 queued: 3 taken. The last of them runs now, the others wait in order.
  CHECK(tasks.id(victim.steal_into(thief, stolen)) == 2);
  CHECK(stolen == 3);
  CHECK(tasks.drain(thief) == std::vector<std::size_t>{0, 1});
  // 2 left: 1 taken, nothing left over for the thief's ring.
  CHECK(tasks.id(victim.steal_into(thief, stolen)) == 3);
  CHECK(stolen == 1);
  CHECK(thief.is_empty());
  CHECK(tasks.drain(victim) == std::vector<std::size_t>{4});
  // Nothing left: nothing stolen.
  CHECK(victim.steal_into(thief, stolen) == nullptr);
  CHECK(stolen == 0);
}

TEST_CASE("a worker with more than half a ring of its own does not steal" * POINTS(1)) {
  FakeTasks tasks(16);
  Inject inject;
  LocalQueue<8> victim, thief;
  for (std::size_t i = 0; i < 8; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  for (std::size_t i = 8; i < 13; ++i) REQUIRE(thief.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  std::uint32_t stolen = 0;
  CHECK(victim.steal_into(thief, stolen) == nullptr);  // 5 of 8: more than half
  CHECK(victim.len() == 8);
  CHECK(thief.pop() != nullptr);  // 4 of 8: exactly half is not more
  CHECK(tasks.id(victim.steal_into(thief, stolen)) == 3);
  CHECK(stolen == 4);
}

TEST_CASE("while a steal is in progress others back off and the owner keeps clear of its slots" * POINTS(2)) {
  FakeTasks tasks(9);
  Inject inject;
  LocalQueue<8> victim, thief, second_thief;
  for (std::size_t i = 0; i < 8; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  Hook hook;
  Pause paused;
  pause_next = &paused;
  Header* taken = nullptr;
  std::uint32_t stolen = 0;
  std::thread stealer([&] { taken = victim.steal_into(thief, stolen); });
  paused.reached.wait();  // it has claimed tasks 0 to 3 and not yet copied them
  // Another stealer backs off.
  std::uint32_t second = 0;
  CHECK(victim.steal_into(second_thief, second) == nullptr);
  CHECK(second == 0);
  // The owner pops past the claim...
  CHECK(tasks.id(victim.pop()) == 4);
  // ...and, the ring being full until the stealer is done, sends a new
  // task to the global queue rather than over a slot being copied.
  CHECK(victim.push_back_or_overflow(tasks[8], inject) == Pushed::global);
  paused.release.count_down();
  stealer.join();
  CHECK(stolen == 4);
  CHECK(tasks.id(taken) == 3);
  CHECK(tasks.drain(thief) == std::vector<std::size_t>{0, 1, 2});
  CHECK(tasks.drain(victim) == std::vector<std::size_t>{5, 6, 7});  // nothing popped twice
  CHECK(inject.len() == 1);
  CHECK(tasks.id(inject.pop()) == 8);
}
