//@ file timers..
// Wheel: the hierarchical timer wheel. Mirrors Tokio's
// runtime/time/wheel/mod.rs.
//
// Six levels of 64 slots; time in ticks of 1 ms since the time driver
// started. A timer goes to the lowest level whose slots still tell its
// deadline apart from now: the level of the highest bit in which the two
// differ, 6 bits a level. Level 0 holds the next 64 ms a millisecond a
// slot; level 5's slots are 2^30 ms (12 days) wide; a deadline 2^36 ms
// (795 days) away or more is kept in the top level and looked at again
// each time round.
//
// As time passes, the slot whose time has come is emptied: its entries
// that are due fire; the others (a level-1 slot holds 64 ms of deadlines)
// go down to the level that now tells them apart: the cascade. Inserting
// and removing are O(1); finding the next deadline is a few bit
// operations per level.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "rt/time/entry.hpp"
#include "rt/time/level.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

class Wheel {
 public:
  static constexpr unsigned num_levels = 6;
  // The furthest deadline the levels tell apart: 2^36 - 1 ticks.
  static constexpr std::uint64_t max_duration = (std::uint64_t{1} << (bits_per_level * num_levels)) - 1;

  Wheel();

  // The level for a timer due at `when`, seen at `elapsed`.
  static unsigned level_for(std::uint64_t elapsed, std::uint64_t when);

  // The tick up to which the wheel has fired everything.
  std::uint64_t elapsed() const { return elapsed_; }
  // Adds `entry` (its deadline set); false, and nothing added, when it is
  // due already (its deadline is not after elapsed()).
  bool insert(TimerEntry* entry);
  void remove(TimerEntry* entry);
  // The next entry due at `now`, taken out of the wheel; nullptr when none
  // is. Time moves forward to `now` as it goes.
  TimerEntry* poll(std::uint64_t now);
  // When the next entry is due, if there is any.
  std::optional<std::uint64_t> next_expiration_time() const;

 private:
  std::optional<Expiration> next_expiration() const;
  // The slot's time has come: fire what is due, cascade the rest.
  void process_expiration(const Expiration& expiration);

  std::uint64_t elapsed_ = 0;
  std::array<Level, num_levels> levels_;
  EntryList pending_;  // due: poll hands them out one by one
};

}  // namespace rt::detail
