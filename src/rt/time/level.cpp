//@ file timers..
// A level of the timer wheel, compiled once per runtime; see level.hpp.
#include "rt/time/level.hpp"

#include <bit>

namespace rt::detail {

unsigned Level::slot_for(std::uint64_t deadline) const {
  return static_cast<unsigned>((deadline >> (bits_per_level * level_)) % slots_per_level);
}

//@ listing level_add_remove
void Level::add_entry(TimerEntry* entry) {
  //@ exercise timers add_remove
  unsigned slot = slot_for(entry->deadline);
  entry->level = level_;
  entry->slot = slot;
  slots_[slot].push_front(entry);
  occupied_ |= std::uint64_t{1} << slot;
  //@ starter
  // TODO: link `entry` into the slot of its deadline at this level
  // (slot_for(entry->deadline)), record where it is (entry->level,
  // entry->slot), and mark the slot occupied in occupied_ (bit `slot`).
  // Hint: the occupied word must say exactly which slots hold entries:
  // next_expiration trusts it and looks nowhere else.
  (void)entry;
  throw Todo("@NN@ add_remove (@FILE@)");
  //@ end
}

void Level::remove_entry(TimerEntry* entry) {
  //@ exercise timers add_remove
  slots_[entry->slot].remove(entry);
  //@ mutant timers remove_keeps_occupied: leaves the slot marked occupied once its last entry is gone
  if (slots_[entry->slot].empty()) occupied_ &= ~(std::uint64_t{1} << entry->slot);
  //@ instead
  //@ end
  //@ starter
  // TODO: unlink `entry` from its slot (slots_[entry->slot]), in O(1), and
  // clear the slot's bit in occupied_ if that was its last entry.
  (void)entry;
  throw Todo("@NN@ add_remove (@FILE@)");
  //@ end
}
//@ listing-end level_add_remove

EntryList Level::take_slot(unsigned slot) {
  occupied_ &= ~(std::uint64_t{1} << slot);
  return slots_[slot].take();
}

//@ listing next_expiration
std::optional<Expiration> Level::next_expiration(std::uint64_t now) const {
  //@ exercise timers next_expiration
  std::optional<unsigned> slot = next_occupied_slot(now);
  if (!slot) return std::nullopt;
  // The start of the level's current span, then the slot's place in it.
  std::uint64_t level_start = now & ~(level_range(level_) - 1);
  std::uint64_t deadline = level_start + *slot * slot_range(level_);
  // Not after now: the slot is in the level's next span. Only the top
  // level wraps so (a timer further than its span away is kept there).
  if (deadline <= now) deadline += level_range(level_);
  return Expiration{level_, *slot, deadline};
  //@ starter
  // TODO: the first occupied slot after `now`'s slot
  // (next_occupied_slot(now)), and the tick it fires at: the start of the
  // level's current span (now rounded down to a multiple of
  // level_range(level_)) plus slot * slot_range(level_). If that is not
  // after `now`, the slot lies in the level's next span: add one
  // level_range.
  // Hint: at level 1 (64 ms slots, 4,096 ms a span), now = 5,000 and slot
  // 3 occupied: at which tick does slot 3 begin?
  (void)now;
  throw Todo("@NN@ next_expiration (@FILE@)");
  //@ end
}

std::optional<unsigned> Level::next_occupied_slot(std::uint64_t now) const {
  //@ exercise timers next_expiration
  if (occupied_ == 0) return std::nullopt;
  // Rotate so that the slot after now's is bit 0; the first set bit from
  // there is the next occupied slot, going round. Now's own slot comes
  // last: below the top level it is never occupied (a deadline there
  // would be at a lower level), and at the top level it holds only timers
  // a whole round or more away.
  auto now_slot = static_cast<unsigned>((now / slot_range(level_)) % slots_per_level);
  unsigned from = (now_slot + 1) % slots_per_level;
  //@ mutant timers next_slot_unrotated: looks for the first occupied slot from slot 0, not from now's
  std::uint64_t rotated = std::rotr(occupied_, static_cast<int>(from));
  //@ instead
  std::uint64_t rotated = occupied_;
  from = 0;
  //@ end
  return (static_cast<unsigned>(std::countr_zero(rotated)) + from) % slots_per_level;
  //@ starter
  // TODO: the first slot after now's slot (now / slot_range(level_),
  // modulo 64) whose bit is set in occupied_, going round past 63 to 0
  // and ending with now's slot itself; nothing if no bit is set. Two bit
  // operations do it, with no loop: std::rotr and std::countr_zero
  // (<bit>).
  // Hint: slots before now's slot are the next round's, not this one's.
  // Why does now's own slot come last? Think of the top level, where a
  // timer years away shares the slot numbers of this round.
  (void)now;
  throw Todo("@NN@ next_expiration (@FILE@)");
  //@ end
}
//@ listing-end next_expiration

}  // namespace rt::detail
