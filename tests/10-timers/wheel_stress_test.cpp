// Chapter 10: the timer wheel under 100,000 timers at random deadlines
// (seeded: every run is the same), from the next tick to beyond the top
// level, driven by hand: time moves to the next expiration the wheel
// announces, a little past it, or one tick on. Each timer must come out of
// the first poll whose time reaches its deadline (never earlier; stepping
// one tick at a time, never more than that tick late), in deadline order,
// exactly once; a cancelled one never.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "rt/time/wheel.hpp"

using rt::detail::TimerEntry;
using rt::detail::Wheel;

namespace {

constexpr std::size_t total = 100'000;

// How far ahead a timer is due: 1 tick to 2^40 ticks, log-uniformly, so
// that every level gets its share, and the top level more than it spans.
std::uint64_t random_delay(std::mt19937_64& rng) {
  unsigned bits = std::uniform_int_distribution<unsigned>(0, 40)(rng);
  std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  return 1 + (rng() & mask);
}

// What the run saw, counted: a failed check names the first offender.
struct Outcome {
  std::size_t fired = 0;
  std::size_t fired_twice = 0;
  std::size_t early = 0;              // handed out before its deadline
  std::size_t late = 0;               // not handed out by the first poll that reached it
  std::size_t out_of_order = 0;       // a deadline before one handed out earlier
  std::size_t cancelled_fired = 0;
  std::size_t kept = 0;               // timers not cancelled
  std::size_t polls = 0;
  std::size_t single_tick_steps = 0;  // polls one tick after the one before
  std::optional<std::pair<std::uint64_t, std::uint64_t>> first_wrong;  // (deadline, now)
};

// Inserts half of the timers at tick 0 and the other half a few at a
// time as time goes on (so that they are placed from ticks other than 0),
// and drives the wheel until time has reached every deadline; with
// `cancel_half`, takes about half of them out, each at a random cancel
// time before its deadline, before the poll that reaches that time.
Outcome run(bool cancel_half, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  Wheel wheel;
  std::vector<TimerEntry> entries(total);
  std::vector<bool> fired(total, false);
  std::vector<bool> cancelled(total, false);
  using Cancel = std::pair<std::uint64_t, std::size_t>;  // (cancel time, timer)
  std::priority_queue<Cancel, std::vector<Cancel>, std::greater<>> cancels;
  std::size_t inserted = 0;
  std::uint64_t latest = 0;  // the last deadline of all
  Outcome outcome;
  auto insert = [&](std::size_t i) {
    std::uint64_t now = wheel.elapsed();
    entries[i].deadline = now + random_delay(rng);
    if (entries[i].deadline > latest) latest = entries[i].deadline;
    REQUIRE(wheel.insert(&entries[i]));
    if (cancel_half && rng() % 2 == 0) {
      cancelled[i] = true;
      cancels.emplace(std::uniform_int_distribution<std::uint64_t>(now, entries[i].deadline - 1)(rng), i);
    } else {
      ++outcome.kept;
    }
    ++inserted;
  };
  while (inserted < total / 2) insert(inserted);

  std::uint64_t now = 0;
  std::uint64_t last_deadline = 0;
  auto wrong = [&](std::uint64_t deadline) {
    if (!outcome.first_wrong) outcome.first_wrong.emplace(deadline, now);
  };
  while (inserted < total || now < latest) {
    for (int k = 0; k < 3 && inserted < total; ++k) insert(inserted);
    // Nothing announced (only cancelled timers left, or timers lost):
    // straight to the last deadline.
    std::optional<std::uint64_t> next = wheel.next_expiration_time();
    if (!next) next = latest;
    REQUIRE(*next > now);
    std::uint64_t previous = now;
    switch (rng() % 4) {
      case 0: now += 1; break;                    // one tick on, due or not
      case 1: now = *next + rng() % 200; break;   // past it, over a few slots
      default: now = *next; break;                // exactly to it
    }
    if (now == previous + 1) ++outcome.single_tick_steps;
    while (!cancels.empty() && cancels.top().first <= now) {
      wheel.remove(&entries[cancels.top().second]);
      cancels.pop();
    }
    ++outcome.polls;
    while (TimerEntry* entry = wheel.poll(now)) {
      auto i = static_cast<std::size_t>(entry - entries.data());
      std::uint64_t deadline = entry->deadline;
      if (fired[i]) {
        ++outcome.fired_twice;
        wrong(deadline);
        continue;
      }
      fired[i] = true;
      ++outcome.fired;
      if (cancelled[i]) ++outcome.cancelled_fired, wrong(deadline);
      if (deadline > now) ++outcome.early, wrong(deadline);
      if (deadline <= previous) ++outcome.late, wrong(deadline);
      if (deadline < last_deadline) ++outcome.out_of_order, wrong(deadline);
      last_deadline = deadline;
    }
  }
  CHECK(wheel.next_expiration_time() == std::nullopt);  // nothing left, not even an empty slot
  CHECK(wheel.poll(UINT64_MAX) == nullptr);
  return outcome;
}

void check(const Outcome& outcome) {
  INFO("the first wrong one (deadline, poll's now): " << doctest::toString(outcome.first_wrong));
  CHECK(outcome.fired == outcome.kept);
  CHECK(outcome.fired_twice == 0);
  CHECK(outcome.early == 0);
  CHECK(outcome.late == 0);
  CHECK(outcome.out_of_order == 0);
  CHECK(outcome.cancelled_fired == 0);
  // The walk did step one tick at a time, often.
  CHECK(outcome.single_tick_steps > outcome.polls / 8);
}

}  // namespace

TEST_CASE("100000 timers at random deadlines fire in order each at the first poll that reaches it" * POINTS(2)) {
  Outcome outcome = run(false, 20261130);
  CHECK(outcome.kept == total);
  check(outcome);
}

TEST_CASE("cancelling half of 100000 timers fires none of those and every other" * POINTS(1)) {
  Outcome outcome = run(true, 7);
  // About half were cancelled (the seed fixes how many).
  CHECK(outcome.kept > total * 2 / 5);
  CHECK(outcome.kept < total * 3 / 5);
  check(outcome);
}
