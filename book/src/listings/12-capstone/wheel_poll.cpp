TimerEntry* Wheel::poll(std::uint64_t now) {
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
}

void Wheel::process_expiration(const Expiration& expiration) {
  EntryList entries = levels_[expiration.level].take_slot(expiration.slot);
  while (TimerEntry* entry = entries.pop_back()) {
    if (entry->deadline <= expiration.deadline) {
      // Due: poll hands it out.
      entry->pending = true;
      pending_.push_front(entry);
      continue;
    }
    // Not yet: down to the level that tells it apart from now.
    levels_[level_for(expiration.deadline, entry->deadline)].add_entry(entry);
  }
}
