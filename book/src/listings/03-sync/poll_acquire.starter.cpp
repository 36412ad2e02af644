Semaphore::Outcome Semaphore::poll_acquire(Acquire& acquire, Context& cx) {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  Waiter& waiter = acquire.waiter_;
  // TODO: decide, under mutex_, what this acquire has come to:
  //  - a permit was handed to it (waiter.granted != 0): set acquire.done_
  //    and report acquired;
  //  - the semaphore is closed: report closed (done_ too);
  //  - first poll (not waiter.queued) and a permit is free: take it
  //    (set waiter.granted and done_ as release() would) and report acquired;
  //  - otherwise join the queue on the first poll (waiters_.push_back),
  //    keep cx's waker with waiter.register_waker(cx), report pending.
  // Hint: a poll may come without a wake-up (spurious), so a queued waiter
  // must not queue twice. And keep the returned old waker in `replaced`:
  // it is dropped after the unlock.
  (void)cx;
  (void)replaced;
  (void)waiter;
  throw Todo("03 poll_acquire (rt/sync/semaphore.cpp)");
}

