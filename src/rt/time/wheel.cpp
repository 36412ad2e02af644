//@ file timers..
// The timer wheel, compiled once per runtime; see wheel.hpp.
#include "rt/time/wheel.hpp"

#include <bit>

namespace rt::detail {

Wheel::Wheel() : levels_{Level(0), Level(1), Level(2), Level(3), Level(4), Level(5)} {}

//@ listing level_for
unsigned Wheel::level_for(std::uint64_t elapsed, std::uint64_t when) {
  //@ exercise timers level_for
  // The highest bit in which the two differ says how far apart they are;
  // or-ing in the low 6 bits puts anything within one level-0 span at
  // level 0.
  std::uint64_t masked = (elapsed ^ when) | (slots_per_level - 1);
  if (masked >= max_duration) masked = max_duration - 1;  // beyond the top: the top level
  //@ mutant timers level_off_by_one: counts the significant bit from 1, so a level ends one bit early
  unsigned significant = 63 - static_cast<unsigned>(std::countl_zero(masked));
  //@ instead
  unsigned significant = 64 - static_cast<unsigned>(std::countl_zero(masked));
  //@ end
  return significant / bits_per_level;
  //@ starter
  // TODO: the level for a timer due at tick `when`, seen at tick
  // `elapsed`: take the highest bit in which the two differ (their xor),
  // with the low 6 bits or-ed in (so that anything in the same 64 ms
  // is level 0); its index divided by 6 (bits_per_level) is the level.
  // Anything from max_duration on goes to the top level (num_levels - 1).
  // Hint: std::countl_zero (<bit>) counts the zeros above the highest set
  // bit. Check yourself: level_for(0, 63) is 0, level_for(0, 64) is 1,
  // level_for(0, 4096) is 2.
  (void)elapsed;
  (void)when;
  throw Todo("@NN@ level_for (@FILE@)");
  //@ end
}
//@ listing-end level_for

//@ listing wheel_insert_remove
bool Wheel::insert(TimerEntry* entry) {
  if (entry->deadline <= elapsed_) return false;  // due now: the caller fires it
  entry->pending = false;
  levels_[level_for(elapsed_, entry->deadline)].add_entry(entry);
  return true;
}

void Wheel::remove(TimerEntry* entry) {
  if (entry->pending) {
    pending_.remove(entry);
    entry->pending = false;
  } else {
    levels_[entry->level].remove_entry(entry);
  }
}
//@ listing-end wheel_insert_remove

std::optional<Expiration> Wheel::next_expiration() const {
  // Level 0's next slot comes before any of level 1's, and so on up.
  for (const Level& level : levels_) {
    if (std::optional<Expiration> expiration = level.next_expiration(elapsed_)) return expiration;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> Wheel::next_expiration_time() const {
  if (!pending_.empty()) return elapsed_;
  std::optional<Expiration> expiration = next_expiration();
  if (!expiration) return std::nullopt;
  return expiration->deadline;
}

//@ listing wheel_poll
TimerEntry* Wheel::poll(std::uint64_t now) {
  //@ exercise timers poll
  for (;;) {
    if (TimerEntry* entry = pending_.pop_back()) {
      entry->pending = false;
      return entry;
    }
    std::optional<Expiration> expiration = next_expiration();
    if (!expiration || expiration->deadline > now) break;
    process_expiration(*expiration);
    elapsed_ = expiration->deadline;
  }
  // Nothing more is due: time moves on to now.
  if (now > elapsed_) elapsed_ = now;
  return nullptr;
  //@ starter
  // TODO: the next entry due at tick `now`, taken out of the wheel, or
  // nullptr when none is:
  //  - an entry already on the pending list (pending_.pop_back(), clear
  //    its `pending` flag) comes first;
  //  - else find the next slot to fire (next_expiration()); if it is due
  //    (its deadline is not after now), empty it (process_expiration), set
  //    elapsed_ to its deadline, and look again;
  //  - when nothing is due, elapsed_ moves forward to now (never back).
  // Hint: why must elapsed_ stop at each slot's deadline on the way,
  // rather than jump to now at once? Think of where process_expiration
  // puts the entries it cascades.
  (void)now;
  throw Todo("@NN@ poll (@FILE@)");
  //@ end
}

void Wheel::process_expiration(const Expiration& expiration) {
  //@ exercise timers poll
  EntryList entries = levels_[expiration.level].take_slot(expiration.slot);
  while (TimerEntry* entry = entries.pop_back()) {
    if (entry->deadline <= expiration.deadline) {
      // Due: poll hands it out.
      entry->pending = true;
      pending_.push_front(entry);
      continue;
    }
    // Not yet: down to the level that tells it apart from now.
    //@ mutant timers cascade_drops: drops the entries of a fired slot that are not due yet
    levels_[level_for(expiration.deadline, entry->deadline)].add_entry(entry);
    //@ instead
    entry->state.write(TimerEntry::State::idle);
    //@ end
  }
  //@ starter
  // TODO: the time of the slot expiration.slot of level expiration.level
  // has come (expiration.deadline). Take its entries out
  // (levels_[...].take_slot). Each one that is due (its deadline not after
  // expiration.deadline) goes to the pending list (set entry->pending,
  // pending_.push_front); each other goes down to the level that tells
  // it apart from expiration.deadline (level_for, add_entry).
  // Hint: a level-1 slot holds 64 ms of deadlines. Which of them are due
  // when it fires, and where do the others belong now?
  (void)expiration;
  throw Todo("@NN@ poll (@FILE@)");
  //@ end
}
//@ listing-end wheel_poll

}  // namespace rt::detail
