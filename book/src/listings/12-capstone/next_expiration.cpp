std::optional<Expiration> Level::next_expiration(std::uint64_t now) const {
  std::optional<unsigned> slot = next_occupied_slot(now);
  if (!slot) return std::nullopt;
  // The start of the level's current span, then the slot's place in it.
  std::uint64_t level_start = now & ~(level_range(level_) - 1);
  std::uint64_t deadline = level_start + *slot * slot_range(level_);
  // Not after now: the slot is in the level's next span. Only the top
  // level wraps so (a timer further than its span away is kept there).
  if (deadline <= now) deadline += level_range(level_);
  return Expiration{level_, *slot, deadline};
}

std::optional<unsigned> Level::next_occupied_slot(std::uint64_t now) const {
  if (occupied_ == 0) return std::nullopt;
  // Rotate so that the slot after now's is bit 0; the first set bit from
  // there is the next occupied slot, going round. Now's own slot comes
  // last: below the top level it is never occupied (a deadline there
  // would be at a lower level), and at the top level it holds only timers
  // a whole round or more away.
  auto now_slot = static_cast<unsigned>((now / slot_range(level_)) % slots_per_level);
  unsigned from = (now_slot + 1) % slots_per_level;
  std::uint64_t rotated = std::rotr(occupied_, static_cast<int>(from));
  return (static_cast<unsigned>(std::countr_zero(rotated)) + from) % slots_per_level;
}
