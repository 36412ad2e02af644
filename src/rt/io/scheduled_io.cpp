//@ file reactor..
// A registration's wakers: the task's poll that stores one, the driver's
// wake and shutdown that take them; see scheduled_io.hpp. The readiness
// word's own operations are in readiness_word.cpp.
#include "rt/io/scheduled_io.hpp"

#include <utility>

namespace rt::detail {

//@ listing poll_readiness
std::optional<ReadyEvent> ScheduledIo::poll_readiness(Context& cx, io::Direction direction) {
  //@ exercise reactor poll_readiness
  ReadyEvent event = ready_event(direction);
  if (event.ready != io::none || event.is_shutdown) return event;
  if (auto hook = before_io_waker_stored.load(std::memory_order_acquire)) hook();
  std::lock_guard lock(waiters_mutex_);
  Waker& slot = direction == io::Direction::read ? reader_ : writer_;
  //@ mutant reactor poll_keeps_stale_waker: keeps the waker already in the slot, so a newer task that waits is never woken
  if (!slot.will_wake(cx.waker())) slot = cx.waker();
  //@ instead
  if (!slot) slot = cx.waker();
  //@ end
  // Look again, now that the waker is where the driver will find it: an
  // event that came after the first look has set its bits by now, and one
  // that comes later will find the waker (wake() takes this lock).
  //@ mutant reactor poll_no_second_look: stores the waker and sleeps without looking again
  event = ready_event(direction);
  if (event.ready != io::none || event.is_shutdown) return event;
  //@ instead
  //@ end
  return std::nullopt;
  //@ starter
  // TODO: is the socket ready in `direction`? Return the ReadyEvent if it
  // is (ready_event(direction) has bits, or is_shutdown); if not, store a
  // clone of cx.waker() in the direction's slot (reader_ or writer_,
  // under waiters_mutex_) so that wake() finds it, and return nothing.
  //  - call the test hook between your first look and the store:
  //      if (auto hook = before_io_waker_stored.load(std::memory_order_acquire)) hook();
  //  - an event can come at any moment, also between your look and the
  //    store. Make sure it is never lost.
  // Hint: the driver sets the bits first, then takes the lock to wake.
  // What must you do after storing the waker, still under the lock?
  (void)cx;
  (void)direction;
  throw Todo("@NN@ poll_readiness (@FILE@)");
  //@ end
}
//@ listing-end poll_readiness

//@ listing wake
void ScheduledIo::wake(io::Ready ready) {
  Waker reader;
  Waker writer;
  //@ mutant reactor wake_holds_lock: wakes the waiting tasks with the registration's lock held, so a waker that polls the registration again deadlocks
  {
    std::lock_guard lock(waiters_mutex_);
    if (ready & io::mask(io::Direction::read)) reader = std::move(reader_);
    if (ready & io::mask(io::Direction::write)) writer = std::move(writer_);
  }
  //@ instead
  std::lock_guard lock(waiters_mutex_);
  if (ready & io::mask(io::Direction::read)) reader = std::move(reader_);
  if (ready & io::mask(io::Direction::write)) writer = std::move(writer_);
  //@ end
  // Woken with the lock released: a wake can run a lot (in a test's waker).
  if (reader) reader.wake();
  if (writer) writer.wake();
}

void ScheduledIo::shutdown() {
  // acq_rel: a task that sees the bit sees everything before it.
  readiness_.fetch_or(shutdown_bit, std::memory_order_acq_rel);
  wake(io::mask(io::Direction::read) | io::mask(io::Direction::write));
}
//@ listing-end wake

}  // namespace rt::detail
