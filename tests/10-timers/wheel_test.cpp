// Chapter 10: the hierarchical timer wheel by itself (rt::detail::Wheel),
// driven by hand, tick by tick, with no runtime and no clock: the level
// and slot of a deadline at every boundary, the next expiration looked for
// from now's slot, removal, and the cascade that brings a far timer down
// the levels until it fires at its deadline.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/time/wheel.hpp"

using rt::detail::TimerEntry;
using rt::detail::Wheel;

namespace {

constexpr std::uint64_t bit(unsigned n) { return std::uint64_t{1} << n; }

// A deadline, seen at `elapsed`, and where the wheel must keep it.
struct Placement {
  std::uint64_t elapsed;
  std::uint64_t when;
  unsigned level;
  unsigned slot;
};

// Every boundary between two levels, seen from tick 0 and from elsewhere.
// A level is the highest bit in which `when` differs from `elapsed`, 6 bits
// a level: not how far apart they are (262,143 and 262,144 are one tick
// apart, and differ in bit 18).
const std::vector<Placement> placements = {
    {0, 1, 0, 1},
    {0, 63, 0, 63},
    {0, 64, 1, 1},
    {0, 4'095, 1, 63},
    {0, 4'096, 2, 1},
    {0, 262'143, 2, 63},
    {0, 262'144, 3, 1},
    {0, bit(24) - 1, 3, 63},
    {0, bit(24), 4, 1},
    {0, bit(30) - 1, 4, 63},
    {0, bit(30), 5, 1},
    {0, bit(36) - 1, 5, 63},     // Wheel::max_duration: the furthest the levels tell apart
    {0, bit(36), 5, 0},          // beyond: kept in the top level, at the slot of its bits 30-35
    {0, bit(36) + 5 * bit(30), 5, 5},
    {0, bit(40), 5, 0},
    {100, 101, 0, 37},
    {100, 127, 0, 63},
    {100, 128, 1, 2},            // 28 ticks away, but bit 7 differs
    {63, 64, 1, 1},
    {4'000, 4'095, 1, 63},
    {4'000, 4'096, 2, 1},
    {262'143, 262'144, 3, 1},    // one tick away, but bit 18 differs
    {300'000, 300'001, 0, 33},
    {300'000, bit(36) - 1, 5, 63},
    {5 * bit(30), 5 * bit(30) + bit(36) - 1, 5, 4},
    {5 * bit(30), 5 * bit(30) + bit(36), 5, 5},
    {bit(36) + 5, bit(36) + 63, 0, 63},
    {bit(36) + 5, bit(37), 5, 0},
};

// A wheel whose time is `elapsed`: polling an empty wheel moves it there.
Wheel wheel_at(std::uint64_t elapsed) {
  Wheel wheel;
  REQUIRE(wheel.poll(elapsed) == nullptr);
  REQUIRE(wheel.elapsed() == elapsed);
  return wheel;
}

// The deadline of every entry `wheel` hands out, polling at each `now` in
// turn until it has none left.
std::vector<std::pair<std::uint64_t, std::uint64_t>> fire(Wheel& wheel, const std::vector<std::uint64_t>& nows) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> fired;  // (deadline, now)
  for (std::uint64_t now : nows) {
    while (TimerEntry* entry = wheel.poll(now)) fired.emplace_back(entry->deadline, now);
  }
  return fired;
}

}  // namespace

TEST_CASE("each deadline goes to the level of the highest bit in which it differs from now" * POINTS(2)) {
  for (const Placement& p : placements) {
    INFO("elapsed " << p.elapsed << ", when " << p.when);
    CHECK(Wheel::level_for(p.elapsed, p.when) == p.level);
  }
  CHECK(Wheel::level_for(0, 0) == 0);
  CHECK(Wheel::level_for(bit(36) + 5, bit(36) + 5) == 0);
  CHECK(Wheel::level_for(0, UINT64_MAX) == Wheel::num_levels - 1);
}

TEST_CASE("an inserted timer lands in the slot of its deadline at its level and a due one is refused" * POINTS(1)) {
  for (const Placement& p : placements) {
    INFO("elapsed " << p.elapsed << ", when " << p.when);
    Wheel wheel = wheel_at(p.elapsed);
    TimerEntry entry;
    entry.deadline = p.when;
    REQUIRE(wheel.insert(&entry));
    CHECK(entry.level == p.level);
    CHECK(entry.slot == p.slot);
    CHECK(wheel.next_expiration_time().has_value());
    wheel.remove(&entry);
    CHECK(wheel.next_expiration_time() == std::nullopt);
  }
  // Due already (not after elapsed): refused, and nothing is added.
  for (std::uint64_t elapsed : {std::uint64_t{0}, std::uint64_t{300'000}}) {
    INFO("elapsed " << elapsed);
    Wheel wheel = wheel_at(elapsed);
    TimerEntry now, past;
    now.deadline = elapsed;
    past.deadline = elapsed / 2;
    CHECK_FALSE(wheel.insert(&now));
    CHECK_FALSE(wheel.insert(&past));
    CHECK(wheel.next_expiration_time() == std::nullopt);
  }
}

TEST_CASE("the next expiration is the first occupied slot from now's slot going round the top level" * POINTS(2)) {
  // At tick 10 * 2^30 the top level (2^30 ticks a slot) stands at slot
  // 10. A deadline at 71 * 2^30 is 61 slots ahead, in slot 7 of the next
  // round; one at 20 * 2^30 is in slot 20 of this round, and comes first.
  Wheel wheel = wheel_at(10 * bit(30));
  TimerEntry next_round, this_round;
  next_round.deadline = 71 * bit(30);
  this_round.deadline = 20 * bit(30);
  REQUIRE(wheel.insert(&next_round));
  REQUIRE(wheel.insert(&this_round));
  REQUIRE(next_round.level == 5);
  REQUIRE(next_round.slot == 7);
  REQUIRE(this_round.slot == 20);
  CHECK(wheel.next_expiration_time() == 20 * bit(30));
  CHECK(fire(wheel, {20 * bit(30) - 1, 20 * bit(30)}) ==
        std::vector<std::pair<std::uint64_t, std::uint64_t>>{{20 * bit(30), 20 * bit(30)}});
  CHECK(wheel.next_expiration_time() == 71 * bit(30));
  CHECK(fire(wheel, {71 * bit(30) - 1, 71 * bit(30)}) ==
        std::vector<std::pair<std::uint64_t, std::uint64_t>>{{71 * bit(30), 71 * bit(30)}});
  CHECK(wheel.next_expiration_time() == std::nullopt);

  // Lower down, a level-1 slot's expiration is its start: when its
  // timers go down to level 0, not yet when they fire.
  Wheel low = wheel_at(645);  // level 1, slot 10
  TimerEntry entry;
  entry.deadline = 1'300;     // level 1, slot 20: ticks 1,280 to 1,343
  REQUIRE(low.insert(&entry));
  CHECK(low.next_expiration_time() == 1'280);
}

TEST_CASE("removing the last timer of a slot frees the slot" * POINTS(1)) {
  {
    INFO("two timers in level 0");
    Wheel wheel;
    TimerEntry a, b;
    a.deadline = 60;
    b.deadline = 50;
    REQUIRE(wheel.insert(&a));
    REQUIRE(wheel.insert(&b));
    CHECK(wheel.next_expiration_time() == 50);
    wheel.remove(&b);
    CHECK(wheel.next_expiration_time() == 60);
    wheel.remove(&a);
    CHECK(wheel.next_expiration_time() == std::nullopt);
  }
  {
    INFO("A at 100 (level 1: it goes down at 64), B at 50 (level 0)");
    Wheel wheel;
    TimerEntry a, b;
    a.deadline = 100;
    b.deadline = 50;
    REQUIRE(wheel.insert(&a));
    REQUIRE(wheel.insert(&b));
    wheel.remove(&b);
    CHECK(wheel.next_expiration_time() == 64);
    CHECK(wheel.poll(64) == nullptr);  // A goes down to level 0
    CHECK(wheel.next_expiration_time() == 100);
    CHECK(fire(wheel, {99, 100}) == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{100, 100}});
  }
  {
    INFO("two timers in one slot: removing one keeps the other");
    Wheel wheel;
    TimerEntry a, b;
    a.deadline = 5'000;
    b.deadline = 5'001;
    REQUIRE(wheel.insert(&a));
    REQUIRE(wheel.insert(&b));
    REQUIRE(a.level == b.level);
    REQUIRE(a.slot == b.slot);
    wheel.remove(&a);
    CHECK(fire(wheel, {5'000, 5'001}) == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{5'001, 5'001}});
  }
}

TEST_CASE("a far timer cascades down the levels and fires at its deadline" * POINTS(1)) {
  // One timer per level, and one beyond the top, each polled at every
  // expiration the wheel announces, one tick before and at its deadline.
  const std::vector<std::uint64_t> deadlines = {40,          100,         5'000, 300'000,
                                                bit(25) + 7, bit(31) + 3, bit(37) + 5 * bit(30) + 11};
  Wheel wheel;
  std::vector<TimerEntry> entries(deadlines.size());
  for (std::size_t i = 0; i < deadlines.size(); ++i) {
    entries[i].deadline = deadlines[i];
    REQUIRE(wheel.insert(&entries[i]));
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> fired;
  std::uint64_t now = 0;
  while (std::optional<std::uint64_t> next = wheel.next_expiration_time()) {
    REQUIRE(*next > now);  // never one already past
    for (std::uint64_t at : {*next - 1, *next}) {
      if (at <= now) continue;
      now = at;
      while (TimerEntry* entry = wheel.poll(now)) fired.emplace_back(entry->deadline, now);
    }
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> expected;
  for (std::uint64_t deadline : deadlines) expected.emplace_back(deadline, deadline);
  CHECK(fired == expected);
}

TEST_CASE("a timer beyond the top level does not hold back a nearer one in the top level" * POINTS(1)) {
  // A timer 2^36 ticks away or more is kept in the top level at the slot
  // of its bits 30 to 35, which may be now's own slot, or one before a
  // nearer timer's: it is due a whole round later, at the earliest, and
  // must not make the wheel skip the nearer one this round.
  struct Case {
    std::uint64_t elapsed;
    std::uint64_t nearer;  // in the top level, this round
    std::uint64_t beyond;  // 2^36 or more away
  };
  for (const Case& c : {Case{0, bit(31) + 3, bit(37) + 11},                       // beyond in now's slot (0)
                        Case{10 * bit(30) + 5, 20 * bit(30), 10 * bit(30) + bit(36) + 7},  // in now's slot (10)
                        Case{10 * bit(30) + 5, 20 * bit(30), 15 * bit(30) + bit(36)}}) {   // in slot 15, before 20
    INFO("elapsed " << c.elapsed << ", nearer " << c.nearer << ", beyond " << c.beyond);
    Wheel wheel = wheel_at(c.elapsed);
    TimerEntry nearer, beyond;
    nearer.deadline = c.nearer;
    beyond.deadline = c.beyond;
    REQUIRE(wheel.insert(&beyond));
    REQUIRE(wheel.insert(&nearer));
    REQUIRE(nearer.level == 5);
    REQUIRE(beyond.level == 5);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> fired;
    std::uint64_t now = c.elapsed;
    while (std::optional<std::uint64_t> next = wheel.next_expiration_time()) {
      REQUIRE(*next > now);
      now = *next;
      while (TimerEntry* entry = wheel.poll(now)) fired.emplace_back(entry->deadline, now);
    }
    CHECK(fired == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{c.nearer, c.nearer}, {c.beyond, c.beyond}});
  }
}
