void JoinSetList::notify(JoinSetEntry& entry) {
  // TODO: the entry's task finished (its waker was woken): make join_next
  // find it.
  //  - under mutex_: only an entry that is idle moves (where_ says where it
  //    is: a notified one is queued already, a gone one has left the set
  //    and belongs to no list); unlink it from idle_, append it to
  //    notified_, set where_, and take the waiting task's waker (waiter_);
  //  - then wake that waker, after unlocking.
  // Hint: a JoinSet's task can finish after the set forgot it
  // (detach_all). What must its waker then do?
  (void)entry;
  throw Todo("1 of chapter 12 (notify, in rt/task/join_set_list.cpp)");
}
