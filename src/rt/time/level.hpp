//@ file timers..
// Level: one level of the timer wheel: 64 slots, each a list of entries,
// and a 64-bit word saying which slots hold any. Mirrors Tokio's
// runtime/time/wheel/level.rs.
//
// Level L's slots are 64^L ticks wide, so the level spans 64^(L+1) ticks:
// level 0 slots are 1 ms, level 1 slots 64 ms, level 2 slots 4.096 s, ...
// The occupied word finds the next slot with entries in two bit
// operations (a rotation and a count of trailing zeros), not a scan.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "rt/time/entry.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

inline constexpr unsigned slots_per_level = 64;
inline constexpr unsigned bits_per_level = 6;  // log2(slots_per_level)

// How many ticks one slot of `level` covers, and the whole level.
constexpr std::uint64_t slot_range(unsigned level) { return std::uint64_t{1} << (bits_per_level * level); }
constexpr std::uint64_t level_range(unsigned level) { return slot_range(level + 1); }

// A slot due to fire: which one, and at what tick.
struct Expiration {
  unsigned level = 0;
  unsigned slot = 0;
  std::uint64_t deadline = 0;
};

class Level {
 public:
  explicit Level(unsigned level = 0) : level_(level) {}

  // The slot of `deadline` at this level.
  unsigned slot_for(std::uint64_t deadline) const;
  void add_entry(TimerEntry* entry);
  void remove_entry(TimerEntry* entry);
  // The first slot with entries after `now`'s (now's own last), and its
  // deadline.
  std::optional<Expiration> next_expiration(std::uint64_t now) const;
  // Every entry of `slot`, taken out.
  EntryList take_slot(unsigned slot);

  std::uint64_t occupied() const { return occupied_; }

 private:
  std::optional<unsigned> next_occupied_slot(std::uint64_t now) const;

  unsigned level_;
  std::uint64_t occupied_ = 0;  // bit s set: slot s holds an entry
  std::array<EntryList, slots_per_level> slots_{};
};

}  // namespace rt::detail
