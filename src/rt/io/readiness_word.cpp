//@ file reactor..
// A registration's readiness word: the driver's set_readiness and the
// task's clear_readiness, each one compare-and-swap on the word that
// holds the readiness bits, the tick and the shutdown bit; see
// scheduled_io.hpp. Mirrors Tokio's io/scheduled_io.rs (set_readiness,
// clear_readiness).
#include "rt/io/scheduled_io.hpp"

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
    //@ mutant reactor set_in_two_steps: adds the readiness bits, then advances the tick, in two atomic steps
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
    //@ instead
    (void)next;
    readiness_.fetch_or(ready, std::memory_order_acq_rel);
    readiness_.fetch_add(1u << tick_shift, std::memory_order_acq_rel);
    return;
    //@ end
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
    //@ mutant reactor clear_load_then_store: clears with the load above and a store, so an event between the two is erased
    if (readiness_.compare_exchange_weak(current, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
      return;
    }
    //@ instead
    readiness_.store(next, std::memory_order_release);
    return;
    //@ end
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

ReadyEvent ScheduledIo::ready_event(io::Direction direction) const {
  // acquire: see what the event that set these bits published.
  return event_of(readiness_.load(std::memory_order_acquire), direction);
}

}  // namespace rt::detail
