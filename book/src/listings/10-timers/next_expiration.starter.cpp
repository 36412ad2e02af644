std::optional<Expiration> Level::next_expiration(std::uint64_t now) const {
  // TODO: the first occupied slot after `now`'s slot
  // (next_occupied_slot(now)), and the tick it fires at: the start of the
  // level's current span (now rounded down to a multiple of
  // level_range(level_)) plus slot * slot_range(level_). If that is not
  // after `now`, the slot lies in the level's next span: add one
  // level_range.
  // Hint: at level 1 (64 ms slots, 4,096 ms a span), now = 5,000 and slot
  // 3 occupied: at which tick does slot 3 begin?
  (void)now;
  throw Todo("3 of chapter 10 (next_expiration, in rt/time/level.cpp)");
}

std::optional<unsigned> Level::next_occupied_slot(std::uint64_t now) const {
  // TODO: the first slot after now's slot (now / slot_range(level_),
  // modulo 64) whose bit is set in occupied_, going round past 63 to 0
  // and ending with now's slot itself; nothing if no bit is set. Two bit
  // operations do it, with no loop: std::rotr and std::countr_zero
  // (<bit>).
  // Hint: slots before now's slot are the next round's, not this one's.
  // Why does now's own slot come last? Think of the top level, where a
  // timer years away shares the slot numbers of this round.
  (void)now;
  throw Todo("3 of chapter 10 (next_expiration, in rt/time/level.cpp)");
}
