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
  CHECK_MESSAGE(victim.steal_into(second_thief, second) == nullptr,
                "a second stealer stole while another steal was in progress (steal head != real head)");
  CHECK(second == 0);
  // The owner pops past the claim...
  CHECK(tasks.id(victim.pop()) == 4);
  // ...and, the ring being full until the stealer is done, sends a new
  // task to the global queue rather than over a slot being copied.
  CHECK_MESSAGE(victim.push_back_or_overflow(tasks[8], inject) == Pushed::global,
                "the owner pushed over a slot a stealer was still copying: room counts from the steal head");
  paused.release.count_down();
  stealer.join();
  CHECK(stolen == 4);
  CHECK(tasks.id(taken) == 3);
  CHECK(tasks.drain(thief) == std::vector<std::size_t>{0, 1, 2});
  CHECK_MESSAGE((tasks.drain(victim) == std::vector<std::size_t>{5, 6, 7}),
                "the stealer's release undid the owner's pop made meanwhile (a plain store, not a "
                "compare-and-swap), so a task came out twice");
  CHECK(inject.len() == 1);
  CHECK(tasks.id(inject.pop()) == 8);
}

namespace {

// The next test's interleaving. The first stealer, about to claim, lets a
// second stealer claim first and hold its claim: the first one's claim
// then fails, and what it sees when it tries again is a steal in progress.
struct ClaimRace {
  std::atomic<bool> first_claim_seen{false};
  std::atomic<bool> abandoned{false};  // the first steal threw: the second stays out
  std::latch second_may_steal{1};
  std::latch second_holds_claim{1};
  std::latch second_may_finish{1};
};
std::atomic<ClaimRace*> claim_race{nullptr};
thread_local bool is_first_stealer = false;

// before_steal_claim, on the first stealer's first claim only.
void let_the_second_stealer_claim_first() {
  ClaimRace* race = claim_race.load();
  if (!race || !is_first_stealer || race->first_claim_seen.exchange(true)) return;
  race->second_may_steal.count_down();
  race->second_holds_claim.wait();
}

// during_steal, on the second stealer: it holds its claim until released.
void hold_the_second_claim() {
  ClaimRace* race = claim_race.load();
  if (!race || is_first_stealer) return;
  race->second_holds_claim.count_down();
  race->second_may_finish.wait();
}

}  // namespace

TEST_CASE("a claim that lost to another stealer looks again for a steal in progress before it retries" * POINTS(2)) {
  FakeTasks tasks(8);
  Inject inject;
  LocalQueue<8> victim, first_thief, second_thief;
  for (std::size_t i = 0; i < 8; ++i) REQUIRE(victim.push_back_or_overflow(tasks[i], inject) == Pushed::local);
  ClaimRace race;
  claim_race = &race;
  rt_test::ScopedHook<void (*)()> before_claim(rt::detail::before_steal_claim, &let_the_second_stealer_claim_first);
  rt_test::ScopedHook<void (*)()> during(rt::detail::during_steal, &hold_the_second_claim);
  Header* second_taken = nullptr;
  std::uint32_t second_stolen = 0;
  std::thread second([&] {
    race.second_may_steal.wait();
    if (!race.abandoned.load()) second_taken = victim.steal_into(second_thief, second_stolen);
  });
  // This thread is the first stealer: its first claim waits in the hook
  // until the second stealer holds tasks 0 to 3, then fails.
  is_first_stealer = true;
  std::uint32_t first_stolen = 0;
  Header* first_taken = nullptr;
  try {
    first_taken = victim.steal_into(first_thief, first_stolen);
  } catch (...) {
    race.abandoned = true;
  }
  is_first_stealer = false;
  bool hook_called = race.first_claim_seen.load();
  if (!hook_called) race.second_may_steal.count_down();  // never reached: let the second one go
  race.second_may_finish.count_down();
  second.join();
  claim_race = nullptr;
  if (race.abandoned.load()) {
    first_taken = victim.steal_into(first_thief, first_stolen);  // the exception again, for the report
  }

  REQUIRE_MESSAGE(hook_called, "steal never called the test hook before_steal_claim before its compare-and-swap");
  CHECK_MESSAGE(first_taken == nullptr,
                "a stealer whose claim failed tried again without looking at the heads afresh: it claimed "
                "behind a steal still in progress, and copied that steal's tasks");
  CHECK(first_stolen == 0);
  CHECK(second_stolen == 4);
  // Every task once: none taken twice, none lost.
  std::vector<int> seen(8, 0);
  if (first_taken) ++seen[tasks.id(first_taken)];
  if (second_taken) ++seen[tasks.id(second_taken)];
  for (auto* queue : {&first_thief, &second_thief, &victim}) {
    for (std::size_t id : tasks.drain(*queue)) ++seen[id];
  }
  CHECK_MESSAGE(seen == std::vector<int>(8, 1), "some task was handed out twice, or lost");
}
