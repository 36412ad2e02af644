void Level::add_entry(TimerEntry* entry) {
  unsigned slot = slot_for(entry->deadline);
  entry->level = level_;
  entry->slot = slot;
  slots_[slot].push_front(entry);
  occupied_ |= std::uint64_t{1} << slot;
}

void Level::remove_entry(TimerEntry* entry) {
  slots_[entry->slot].remove(entry);
  if (slots_[entry->slot].empty()) occupied_ &= ~(std::uint64_t{1} << entry->slot);
}
