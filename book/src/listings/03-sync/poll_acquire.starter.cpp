Semaphore::Outcome Semaphore::poll_acquire(Acquire& acquire, Context& cx) {
  Waiter& waiter = acquire.waiter_;
  // TODO: decide what this acquire has come to.
  //  - done_ already: give the same answer again (granted: acquired).
  //  - The first poll (not waiting_): take a permit from the pool with
  //    try_acquire(), without the lock. Taken: set waiter.granted and
  //    done_, report acquired. Not taken: call the test hook
  //    semaphore_after_fast_path (if set), then go on under mutex_.
  //  - Under mutex_: a permit handed over (waiter.granted): done_,
  //    acquired. Closed (state_ & kClosed): done_, closed. A first poll:
  //    take_or_mark_waiting(); no permit: join the queue
  //    (waiters_.push_back) and set waiting_. Then keep cx's waker with
  //    waiter.register_waker(cx), its old one in `replaced` (declared
  //    before the lock, so it is dropped after the unlock); pending.
  // Hint: what can a release() do between your first look and your lock?
  // And a poll may come without a wake-up (spurious): a queued waiter
  // must not queue twice, nor take from the pool past the queue.
  (void)cx;
  (void)waiter;
  throw Todo("1 of chapter 03 (poll_acquire, in rt/sync/semaphore.cpp)");
}

