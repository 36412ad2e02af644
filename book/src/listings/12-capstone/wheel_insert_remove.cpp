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
