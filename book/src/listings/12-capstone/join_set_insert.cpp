bool JoinSetList::poll_entry(JoinSetEntry& entry) {
  WakerRef waker(entry.raw_waker());
  Context cx(waker.get());
  return entry.poll_join(cx);
}

void JoinSetList::insert(JoinSetEntry* entry) {
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(*entry);
    ++len_;
  }
  // The task's join waker is now the entry's: its completion moves the
  // entry. A task that finished already wakes it at once.
  if (poll_entry(*entry)) notify(*entry);
}
