//@ file timers..
// Sleep's registration, poll and drop, compiled once per runtime; see
// sleep.hpp.
#include "rt/time/sleep.hpp"

#include "rt/runtime/driver.hpp"

namespace rt::time {

Sleep::Sleep(Instant deadline) : driver_(rt::detail::current_time_driver()), deadline_(deadline) {
  //@ mutant timers register_at_creation: registers the timer when the Sleep is made, not when it is first polled
  //@ instead
  entry_.deadline = driver_->deadline_to_tick(deadline_);
  registered_ = true;
  driver_->register_entry(entry_, Waker());
  //@ end
}

//@ listing sleep
bool Sleep::poll(Context& cx) {
  //@ exercise timers sleep
  if (!registered_) {
    // The first poll: only now does the timer go into the wheel.
    registered_ = true;
    entry_.deadline = driver_->deadline_to_tick(deadline_);
    return driver_->register_entry(entry_, cx.waker());
  }
  //@ mutant timers poll_reads_state_unlocked: returns ready when the entry's state says fired, reading it without the driver's lock while the driver may be writing it
  //@ mutant timers poll_stores_waker_unlocked: asks whether the timer fired, then stores the new waker itself: a fire in between wakes the old waker, and the task that polled sleeps for ever
  return driver_->poll_entry(entry_, cx.waker());
  //@ instead
  if (driver_->has_fired(entry_)) return true;
  entry_.waker = cx.waker();
  return false;
  //@ end
  //@ instead
  if (entry_.state.read() == rt::detail::TimerEntry::State::fired) return true;
  return driver_->poll_entry(entry_, cx.waker());
  //@ end
  //@ starter
  // TODO: is the deadline reached? The first poll registers the timer
  // (registered_ says whether it was): set entry_.deadline to the
  // deadline's tick (driver_->deadline_to_tick(deadline_)), then
  // driver_->register_entry(entry_, cx.waker()) (true: due already).
  // Later polls ask driver_->poll_entry(entry_, cx.waker()), which also
  // keeps the newest waker. Once registered, entry_ is the driver's, and
  // its thread fires it under its lock: read or write it only through
  // the driver's calls.
  // Hint: why not register in the constructor? Think of
  // timeout(1s, task) around a task that is ready at once.
  (void)cx;
  throw Todo("@NN@ sleep (@FILE@)");
  //@ end
}

Sleep::~Sleep() {
  //@ exercise timers sleep
  //@ mutant timers drop_leaves_entry: a destroyed Sleep stays linked in the wheel
  //@ mutant timers drop_reads_state_unlocked: asks the entry's state whether it is still in the wheel, reading it without the driver's lock while the driver may be firing it
  if (registered_) driver_->deregister_entry(entry_);
  //@ instead
  if (entry_.state.read() == rt::detail::TimerEntry::State::registered) driver_->deregister_entry(entry_);
  //@ end
  //@ instead
  //@ end
  //@ starter
  // TODO: a Sleep that goes away must leave the wheel: the wheel points
  // into entry_. If it was registered, deregister it
  // (driver_->deregister_entry(entry_)).
  //@ end
}
//@ listing-end sleep

bool Sleep::is_elapsed() {
  //@ mutant timers is_elapsed_off_by_one: says a sleep never polled elapsed a tick after its deadline
  if (!registered_) return driver_->deadline_to_tick(deadline_) <= driver_->now_tick();
  //@ instead
  if (!registered_) return driver_->deadline_to_tick(deadline_) < driver_->now_tick();
  //@ end
  return driver_->has_fired(entry_);
}

void Sleep::reset(Instant deadline) {
  deadline_ = deadline;
  if (!registered_) return;  // registers at its first poll, with the new deadline
  driver_->reset_entry(entry_, driver_->deadline_to_tick(deadline_));
}

}  // namespace rt::time
