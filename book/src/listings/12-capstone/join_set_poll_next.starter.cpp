JoinSetEntry* JoinSetList::poll_next(Context& cx, bool& empty) {
  // TODO: join_next's poll. Look at the first entry of notified_ (under
  // mutex_):
  //  - none: set `empty` when the set has no entry at all (len_ == 0);
  //    otherwise keep cx's waker in waiter_, so that notify() wakes this
  //    task; return nullptr either way;
  //  - one: move it back to idle_ (where_ too) before polling it, then,
  //    after unlocking, poll its JoinHandle with the entry's own waker
  //    (poll_entry). Ready: take it out of the set (unlink, under the
  //    lock) and return it. Not ready: ask to be polled again
  //    (cx.waker().wake_by_ref()) and return nullptr.
  // Hint: why must the entry be idle again before its JoinHandle is
  // polled, and not after?
  (void)cx;
  (void)empty;
  throw Todo("2 of chapter 12 (poll_next, in rt/task/join_set_list.cpp)");
}
