// The parker's states, compiled once per runtime; see park.hpp.
#include "rt/scheduler/park.hpp"

namespace rt::detail {

//@ listing parker_states
void Parker::park() {
  //@ exercise reactor park
  // A notification is waiting: take it, and do not sleep at all.
  int expected = notified;
  // acquire: see what the unparker wrote before it notified.
  if (state_.compare_exchange_strong(expected, empty, std::memory_order_acquire)) return;
  //@ mutant reactor park_never_drives: always sleeps on the condition variable, so nobody waits in epoll_wait
  if (driver_ && driver_->try_lock()) {
  //@ instead
  if ((false)) {
  //@ end
    park_driver();
    driver_->unlock();
  //@ mutant reactor park_returns_when_driver_held: returns at once when another thread holds the driver, so the thread spins looking for work
  } else {
  //@ instead
  } else if (!driver_) {
  //@ end
    park_condvar();
  }
  //@ starter
  // TODO: sleep until unpark():
  //  - a notification already there (state_ is notified): take it (back
  //    to empty) and return without sleeping;
  //  - else, if there is a driver and it is free (driver_->try_lock()),
  //    sleep in it (park_driver()), then unlock it;
  //  - else sleep on the condition variable (park_condvar()).
  // Hint: two threads of one runtime park at once. Which one waits for
  // I/O, and how does the other learn of an event?
  throw Todo("@NN@ park (@FILE@)");
  //@ end
}

void Parker::park_driver() {
  if (auto hook = before_park_driver.load(std::memory_order_acquire)) hook(*this);
  int expected = empty;
  // acq_rel: unpark reads the driver after seeing parked_driver.
  //@ mutant reactor park_driver_stores: stores parked_driver instead of swapping it in from empty, so a notification that came meanwhile is overwritten
  if (!state_.compare_exchange_strong(expected, parked_driver, std::memory_order_acq_rel)) {
  //@ instead
  state_.store(parked_driver, std::memory_order_release);
  if ((false)) {
  //@ end
    // Notified between the first look and here: take it, do not sleep.
    state_.exchange(empty, std::memory_order_acquire);
    return;
  }
  driver_->park();
  // Woken by an unpark or by an event: either way awake now. An unpark
  // that landed meanwhile is taken here too: the caller looks for work.
  state_.exchange(empty, std::memory_order_acquire);
}

void Parker::park_condvar() {
  std::unique_lock lock(mutex_);
  int expected = empty;
  if (!state_.compare_exchange_strong(expected, parked_condvar, std::memory_order_acq_rel)) {
    state_.exchange(empty, std::memory_order_acquire);  // notified meanwhile
    return;
  }
  for (;;) {
    condvar_.wait(lock);
    expected = notified;
    if (state_.compare_exchange_strong(expected, empty, std::memory_order_acquire)) return;
    // A spurious wake-up: sleep on.
  }
}

void Parker::unpark() {
  //@ exercise reactor unpark
  // acq_rel: publish what the caller queued before waking the thread, and
  // (parked_driver) see the driver the parker stored.
  //@ mutant reactor unpark_in_two_steps: reads the state, then stores notified: a park between the two sleeps for good
  switch (state_.exchange(notified, std::memory_order_acq_rel)) {
  //@ instead
  int before = state_.load(std::memory_order_acquire);
  state_.store(notified, std::memory_order_release);
  switch (before) {
  //@ end
    case empty:     // awake: it finds the notification at its next park
    case notified:  // notified already
      return;
    case parked_condvar: {
      // Take the lock, so that the sleeper is in wait() (it holds the
      // lock until then): a notify before it waits would be lost.
      //@ mutant reactor unpark_skips_lock: notifies without taking the lock, so a sleeper not yet in wait() misses it
      { std::lock_guard lock(mutex_); }
      //@ instead
      //@ end
      condvar_.notify_one();
      return;
    }
    case parked_driver:
      //@ mutant reactor unpark_forgets_driver: leaves a thread parked in the driver asleep
      driver_->unpark();
      //@ instead
      //@ end
      return;
  }
  //@ starter
  // TODO: wake the parker's thread, wherever it sleeps. Swap `notified`
  // into state_, then, by what was there before:
  //  - empty or notified: nothing more (the next park returns at once);
  //  - parked_condvar: wake it on condvar_ (take mutex_ for a moment
  //    first: why?);
  //  - parked_driver: it waits in epoll_wait: wake the driver
  //    (driver_->unpark(), which writes its eventfd).
  // Hint: which of these could a condition variable alone not wake?
  throw Todo("@NN@ unpark (@FILE@)");
  //@ end
}
//@ listing-end parker_states

}  // namespace rt::detail
