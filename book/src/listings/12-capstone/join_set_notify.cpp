void JoinSetList::notify(JoinSetEntry& entry) {
  Waker waiter;
  {
    std::lock_guard lock(mutex_);
    // Only an idle entry moves: a notified one is queued already, and one
    // that left the set belongs to no list. (A task that completes on one
    // thread while another detaches the set wakes a gone entry: dropping
    // the JoinHandle cannot take the waker back from a completing task.)
    if (entry.where_ != JoinSetEntry::Where::idle) return;
    idle_.remove(entry);
    notified_.push_back(entry);
    entry.where_ = JoinSetEntry::Where::notified;
    waiter = std::move(waiter_);
  }
  // Outside the lock: waking may run the waiter's scheduler code, which
  // must not find this lock held.
  waiter.wake();
}
