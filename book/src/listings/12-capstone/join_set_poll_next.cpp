JoinSetEntry* JoinSetList::poll_next(Context& cx, bool& empty) {
  JoinSetEntry* entry;
  Waker replaced;  // dropped after unlocking: it may hold a task's last reference
  {
    std::lock_guard lock(mutex_);
    entry = notified_.head;
    if (!entry) {
      empty = len_ == 0;
      // Kept under the lock that notify takes: a completion after this
      // line finds the waker.
      if (!empty) replaced = std::exchange(waiter_, cx.waker());
      return nullptr;
    }
    // Back to idle while its JoinHandle is polled: if the poll says not
    // ready, the entry's next wake must move it again.
    notified_.remove(*entry);
    idle_.push_back(*entry);
    entry->where_ = JoinSetEntry::Where::idle;
  }
  if (poll_entry(*entry)) {
    std::lock_guard lock(mutex_);
    unlink(*entry);
    return entry;  // the set's reference goes with it
  }
  // Woken, yet not finished: come back for the others later, rather than
  // loop here over every entry (Tokio does the same).
  cx.waker().wake_by_ref();
  return nullptr;
}
