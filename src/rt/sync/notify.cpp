//@ file sync..
// Notify's operations, compiled once per runtime; see notify.hpp.
#include "rt/sync/notify.hpp"

namespace rt {

//@ listing notify_one
void Notify::notify_one() {
  Waker waker;  // destroyed after the unlock
  std::unique_lock lock(mutex_);
  //@ exercise sync notify_one
  //@ mutant sync notify_one_unlocks_first: unlocks before it looks, so it takes a waiter off the list (or stores the permit) while a waiter's poll changes them under the lock
  if (detail::Waiter* waiter = waiters_.pop_front()) {
    //@ mutant sync notify_one_forgets_grant: wakes the waiter without marking it notified, so its next poll takes the wake for a spurious one
    waiter->granted = by_notify_one;
    //@ instead
    //@ end
    waker = std::move(waiter->waker);
  //@ mutant sync notify_one_stores_permit_too: stores the permit even when it wakes a waiter, so the next waiter returns at once
  } else {
  //@ instead
  }
  {
  //@ end
    permit_ = true;  // one permit at most: a second call changes nothing
  }
  lock.unlock();
  waker.wake();
  //@ instead
  lock.unlock();  // only the wake needs to be outside the lock, but why hold it?
  if (detail::Waiter* waiter = waiters_.pop_front()) {
    waiter->granted = by_notify_one;
    waker = std::move(waiter->waker);
  } else {
    permit_ = true;
  }
  waker.wake();
  //@ end
  //@ starter
  // TODO: wake the oldest waiter (waiters_.pop_front()), after setting its
  // `granted` to by_notify_one; with nobody waiting, store the permit.
  // Call the waker only after lock.unlock().
  // Hint: the waiter's poll looks at `granted`, under the same mutex, to
  // tell a real notification from a spurious wake-up.
  (void)waker;
  throw Todo("@NN@ notify_one (@FILE@)");
  //@ end
}

//@ listing-end notify_one
void Notify::notify_waiters() {
  std::unique_lock lock(mutex_);
  std::uint64_t call = ++waiters_calls_;  // also wakes the Notified futures not yet polled
  //@ mutant sync notify_waiters_stores_permit: with nobody waiting, stores a permit as notify_one does, so the next waiter returns at once
  //@ instead
  if (!waiters_.front()) permit_ = true;
  //@ end
  for (;;) {
    // At most a WakeList's worth at a time, woken with the lock released.
    // Only the waiters queued before this call: they are at the front,
    // and one queued meanwhile carries this call's number.
    detail::WakeList wake;
    detail::Waiter* waiter = waiters_.front();
    while (waiter && waiter->tag < call && wake.can_push()) {
      waiters_.pop_front();
      waiter->granted = by_notify_waiters;
      wake.push(std::move(waiter->waker));
      waiter = waiters_.front();
    }
    bool more = waiter && waiter->tag < call;
    lock.unlock();
    wake.wake_all();
    //@ mutant sync notify_waiters_one_batch: wakes one WakeList's worth and returns: the waiters past the first 32 are never woken
    if (!more) return;
    lock.lock();
    //@ instead
    (void)more;
    return;
    //@ end
  }
}

std::uint64_t Notify::waiters_calls() {
  std::lock_guard lock(mutex_);
  return waiters_calls_;
}

//@ listing poll_notified
bool Notify::poll_notified(Notified& notified, Context& cx) {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(mutex_);
  if (notified.done_) return true;
  detail::Waiter& waiter = notified.waiter_;
  if (waiter.granted != 0 || waiters_calls_ != notified.calls_) {
    waiters_.remove(waiter);  // notify_waiters() to a future never polled
    notified.done_ = true;
    return true;
  }
  if (!waiter.queued) {  // the first poll
    if (permit_) {
      permit_ = false;
      notified.done_ = true;
      return true;
    }
    waiter.tag = waiters_calls_;
    waiters_.push_back(waiter);
  }
  replaced = waiter.register_waker(cx);  // a spurious wake-up lands here
  return false;
}

//@ listing-end poll_notified
//@ listing notify_cancel
void Notify::cancel(Notified& notified) {
  Waker waker;
  std::unique_lock lock(mutex_);
  waiters_.remove(notified.waiter_);
  //@ mutant sync notify_cancel_drops_notification: a Notified destroyed after notify_one chose it takes the notification with it
  if (notified.waiter_.granted != by_notify_one || notified.done_) return;
  //@ instead
  return;
  //@ end
  if (detail::Waiter* next = waiters_.pop_front()) {
    next->granted = by_notify_one;
    waker = std::move(next->waker);
  } else {
    permit_ = true;
  }
  lock.unlock();
  waker.wake();
}

//@ listing-end notify_cancel

}  // namespace rt
