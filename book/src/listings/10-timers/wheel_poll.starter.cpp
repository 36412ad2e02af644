TimerEntry* Wheel::poll(std::uint64_t now) {
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
  throw Todo("4 of chapter 10 (poll, in rt/time/wheel.cpp)");
}

void Wheel::process_expiration(const Expiration& expiration) {
  // TODO: the time of the slot expiration.slot of level expiration.level
  // has come (expiration.deadline). Take its entries out
  // (levels_[...].take_slot). Each one that is due (its deadline not after
  // expiration.deadline) goes to the pending list (set entry->pending,
  // pending_.push_front); each other goes down to the level that tells
  // it apart from expiration.deadline (level_for, add_entry).
  // Hint: a level-1 slot holds 64 ms of deadlines. Which of them are due
  // when it fires, and where do the others belong now?
  (void)expiration;
  throw Todo("4 of chapter 10 (poll, in rt/time/wheel.cpp)");
}
