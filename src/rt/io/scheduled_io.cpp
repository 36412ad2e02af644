//@ file reactor..
// A registration's state word and wakers, compiled once per runtime; see
// scheduled_io.hpp.
#include "rt/io/scheduled_io.hpp"

#include <utility>

namespace rt::detail {

namespace {

io::Ready ready_of(std::uint32_t word) { return io::Ready(word & ScheduledIo::readiness_mask); }
std::uint32_t tick_of(std::uint32_t word) { return (word >> ScheduledIo::tick_shift) & ScheduledIo::tick_mask; }
[[maybe_unused]] std::uint32_t pack(std::uint32_t tick, io::Ready ready) {  // unused in the starter
  return (tick & ScheduledIo::tick_mask) << ScheduledIo::tick_shift | ready;
}

ReadyEvent event_of(std::uint32_t word, io::Direction direction) {
  return {tick_of(word), ready_of(word) & io::mask(direction), (word & ScheduledIo::shutdown_bit) != 0};
}

}  // namespace

//@ listing set_readiness
void ScheduledIo::set_readiness(io::Ready ready) {
  //@ exercise reactor readiness
  std::uint32_t current = readiness_.load(std::memory_order_acquire);
  for (;;) {
    if (current & shutdown_bit) return;  // nobody is to be woken any more
    //@ mutant reactor set_keeps_tick: adds the readiness without advancing the tick
    std::uint32_t next = pack(tick_of(current) + 1, ready_of(current) | ready);
    //@ instead
    std::uint32_t next = pack(tick_of(current), ready_of(current) | ready);
    //@ end
    // acq_rel: publish the event to the task that reads the word (acquire
    // there), and see the clears that came before.
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
  }
  //@ starter
  // TODO: an event brought `ready`: add its bits to the word's readiness
  // and advance the tick by one (it wraps within tick_mask), in one
  // atomic step (a compare-and-swap loop), without touching the shutdown
  // bit; once shut down, change nothing.
  // Hint: clear_readiness forgets bits only if the tick is still the one
  // a task saw. What must an event do, so that a clear that comes after
  // it (with an older tick) forgets nothing?
  (void)ready;
  throw Todo("@NN@ readiness (@FILE@)");
  //@ end
}

void ScheduledIo::clear_readiness(const ReadyEvent& event) {
  //@ exercise reactor clear
  // The closed bits stay: a direction that closed never reopens.
  //@ mutant reactor clear_closed_bits: clears the closed bits too
  io::Ready forget = event.ready & ~io::closed;
  //@ instead
  io::Ready forget = event.ready;
  //@ end
  std::uint32_t current = readiness_.load(std::memory_order_acquire);
  for (;;) {
    //@ mutant reactor clear_any_tick: clears even when an event came after the one the task saw
    if (tick_of(current) != event.tick) return;  // a newer event: its readiness stays
    //@ instead
    //@ end
    std::uint32_t next = (current & ~readiness_mask) | (ready_of(current) & ~forget);
    // acq_rel: ordered with the driver's set_readiness on the same word.
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
  }
  //@ starter
  // TODO: the task's system call would block after all: clear the bits
  // `event` reported (event.ready), in one atomic step, but
  //  - only if the word's tick is still event.tick: otherwise a newer
  //    event came in between, and its readiness must stay;
  //  - never the closed bits (io::closed): a closed direction stays closed.
  // Hint: the driver can set bits between the task's failed read and this
  // clear. Which of the two wins the compare-and-swap, and what must each
  // outcome leave in the word?
  (void)event;
  throw Todo("@NN@ clear (@FILE@)");
  //@ end
}
//@ listing-end set_readiness

//@ listing poll_readiness
std::optional<ReadyEvent> ScheduledIo::poll_readiness(Context& cx, io::Direction direction) {
  //@ exercise reactor poll_readiness
  ReadyEvent event = ready_event(direction);
  if (event.ready != io::none || event.is_shutdown) return event;
  if (auto hook = before_io_waker_stored.load(std::memory_order_acquire)) hook();
  std::lock_guard lock(waiters_mutex_);
  Waker& slot = direction == io::Direction::read ? reader_ : writer_;
  if (!slot.will_wake(cx.waker())) slot = cx.waker();
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

ReadyEvent ScheduledIo::ready_event(io::Direction direction) const {
  // acquire: see what the event that set these bits published.
  return event_of(readiness_.load(std::memory_order_acquire), direction);
}

//@ listing wake
void ScheduledIo::wake(io::Ready ready) {
  Waker reader;
  Waker writer;
  {
    std::lock_guard lock(waiters_mutex_);
    if (ready & io::mask(io::Direction::read)) reader = std::move(reader_);
    if (ready & io::mask(io::Direction::write)) writer = std::move(writer_);
  }
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
