//@ file sync..
// The semaphore's operations, compiled once per runtime; see semaphore.hpp.
#include "rt/sync/semaphore.hpp"

namespace rt::detail {

bool Semaphore::try_acquire() {
  std::lock_guard lock(mutex_);
  if (closed_ || permits_ == 0) return false;
  --permits_;
  return true;
}

void Semaphore::release(std::size_t permits) {
  std::unique_lock lock(mutex_);
  for (;;) {
    // A WakeList's worth at a time, woken with the lock released.
    WakeList wake;
    for (; permits > 0 && wake.can_push(); --permits) release_one(wake);
    lock.unlock();
    wake.wake_all();
    if (permits == 0) return;
    lock.lock();
  }
}

void Semaphore::close() {
  std::unique_lock lock(mutex_);
  closed_ = true;  // from now on nobody queues
  for (;;) {
    WakeList wake;
    while (wake.can_push()) {
      Waiter* waiter = waiters_.pop_front();
      if (!waiter) break;
      wake.push(std::move(waiter->waker));
    }
    bool more = !waiters_.empty();
    lock.unlock();
    wake.wake_all();
    if (!more) return;
    lock.lock();
  }
}

bool Semaphore::is_closed() {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::size_t Semaphore::available_permits() {
  std::lock_guard lock(mutex_);
  return permits_;
}

//@ listing poll_acquire
Semaphore::Outcome Semaphore::poll_acquire(Acquire& acquire, Context& cx) {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  Waiter& waiter = acquire.waiter_;
  //@ exercise sync poll_acquire
  if (acquire.done_) return waiter.granted ? Outcome::acquired : Outcome::closed;
  if (waiter.granted) {  // release() handed us a permit while we waited
    acquire.done_ = true;
    return Outcome::acquired;
  }
  if (closed_) {
    waiters_.remove(waiter);
    acquire.done_ = true;
    return Outcome::closed;
  }
  if (!waiter.queued) {  // the first poll
    if (permits_ > 0) {  // nobody waits (the invariant), so nobody is passed
      --permits_;
      waiter.granted = 1;
      acquire.done_ = true;
      return Outcome::acquired;
    }
    //@ mutant sync acquire_queues_twice: joins the queue on every pending poll, so a spurious wake-up links the waiter in twice
    waiters_.push_back(waiter);
  }
  //@ instead
  }
  waiters_.push_back(waiter);
  //@ end
  // Queued, now or before: a spurious wake-up lands here too.
  replaced = waiter.register_waker(cx);
  return Outcome::pending;
  //@ starter
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
  throw Todo("@NN@ poll_acquire (@FILE@)");
  //@ end
}

//@ listing-end poll_acquire
//@ listing release_one
void Semaphore::release_one(WakeList& wake) {
  if (Waiter* waiter = waiters_.pop_front()) {
    waiter->granted = 1;  // the permit is now the waiter's
    wake.push(std::move(waiter->waker));
    return;
  }
  ++permits_;
}

//@ listing-end release_one
//@ listing cancel
void Semaphore::cancel(Acquire& acquire) {
  WakeList wake;
  std::lock_guard lock(mutex_);
  waiters_.remove(acquire.waiter_);
  // Handed a permit that nobody will use: pass it on, as Tokio's
  // Acquire::drop does, or the next waiter would wait for ever.
  //@ mutant sync cancel_loses_permit: an acquire destroyed after release() handed it a permit takes the permit with it
  if (acquire.waiter_.granted && !acquire.done_) release_one(wake);
  //@ instead
  //@ end
}

//@ listing-end cancel

}  // namespace rt::detail
