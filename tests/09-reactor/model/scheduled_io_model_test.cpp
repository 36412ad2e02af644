// Chapter 09, under the model checker: ScheduledIo's readiness word, set by
// the driver and cleared by the task, both as compare-and-swaps on one word
// that carries the tick. Each body runs under every schedule within the
// bound; what it checks is what a reader relies on: an event is never
// forgotten.
#include "counting_waker.hpp"
#include "model.hpp"
#include "rt/io/scheduled_io.hpp"

namespace {

using rt::detail::ReadyEvent;
using rt::detail::ScheduledIo;

std::uint32_t tick_of(std::uint32_t word) { return (word >> ScheduledIo::tick_shift) & ScheduledIo::tick_mask; }

}  // namespace

TEST_CASE("model: an event that lands while a reader clears stale readiness is never lost" * POINTS(3)) {
  // The reader saw readiness, its read would block (EAGAIN), so it clears
  // what it saw and polls again. Meanwhile, after its first look, the
  // driver delivers a new event. The reader must see it now, or be woken
  // for it and see it then.
  rt_test::explore([] {
    CountingWaker waker;
    ScheduledIo io;
    io.set_readiness(rt::io::readable);
    model::atomic<bool> looked{false};
    bool ready_at_once = false;
    model::thread reader([&] {
      rt::Context cx(waker.waker());
      std::optional<ReadyEvent> seen = io.poll_readiness(cx, rt::io::Direction::read);
      looked.store(true, std::memory_order_release);
      model::check(seen.has_value(), "the first poll finds the readiness set before");
      io.clear_readiness(*seen);
      ready_at_once = io.poll_readiness(cx, rt::io::Direction::read).has_value();
    });
    while (!looked.load(std::memory_order_acquire)) model::yield_now();
    io.set_readiness(rt::io::readable);
    io.wake(rt::io::readable);
    reader.join();
    if (!ready_at_once) {
      model::check(waker.wakes() == 1, "the reader waits, and the new event did not wake it");
      model::check((io.ready_event(rt::io::Direction::read).ready & rt::io::readable) != 0,
                   "the reader was woken, but the new event's readiness is gone: its next poll waits for ever");
    }
  });
}

TEST_CASE("model: two events set from two threads both count: both bits set and the tick moved twice" * POINTS(2)) {
  rt_test::explore([] {
    ScheduledIo io;
    model::thread writer_side([&] { io.set_readiness(rt::io::writable); });
    io.set_readiness(rt::io::readable);
    writer_side.join();
    std::uint32_t word = io.load();
    model::check((word & rt::io::readable) != 0 && (word & rt::io::writable) != 0, "an event's readiness was lost");
    model::check(tick_of(word) == 2, "the tick did not move once per event");
  });
}

TEST_CASE("model: shutdown wakes a reader that waits unless the reader sees it first" * POINTS(2)) {
  rt_test::explore([] {
    CountingWaker waker;
    ScheduledIo io;
    bool saw_shutdown = false;
    model::thread reader([&] {
      rt::Context cx(waker.waker());
      std::optional<ReadyEvent> seen = io.poll_readiness(cx, rt::io::Direction::read);
      saw_shutdown = seen && seen->is_shutdown;
    });
    io.shutdown();
    reader.join();
    model::check(saw_shutdown || waker.wakes() == 1, "the reader waits after shutdown and nobody woke it");
    std::optional<ReadyEvent> after;
    {
      rt::Context cx(waker.waker());
      after = io.poll_readiness(cx, rt::io::Direction::read);
    }
    model::check(after && after->is_shutdown, "after shutdown a poll must report it");
  });
}

TEST_CASE("model: a stale clear after shutdown keeps the shutdown" * POINTS(2)) {
  rt_test::explore([] {
    ScheduledIo io;
    io.set_readiness(rt::io::readable);
    ReadyEvent seen = io.ready_event(rt::io::Direction::read);
    model::thread closer([&] { io.shutdown(); });
    io.clear_readiness(seen);
    closer.join();
    model::check(io.ready_event(rt::io::Direction::read).is_shutdown, "a clear erased the shutdown bit");
  });
}
