// Chapter 09: ScheduledIo, one socket's readiness word and wakers, driven
// by hand on one thread, without a runtime or a socket: the tick that
// tells a stale readiness from a fresh one, the closed bits that stay,
// shutdown, whom an event wakes, a waker that polls again as it is woken,
// and the second look that catches an event arriving while a task stores
// its waker.
#include <atomic>
#include <cstdint>
#include <optional>

#include "counting_waker.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "scoped_hook.hpp"
#include "wakers.hpp"

namespace {

namespace io = rt::io;
using rt::detail::ReadyEvent;
using rt::detail::ScheduledIo;

std::uint32_t tick_of(const ScheduledIo& scheduled) {
  return (scheduled.load() >> ScheduledIo::tick_shift) & ScheduledIo::tick_mask;
}
std::uint32_t ready_of(const ScheduledIo& scheduled) { return scheduled.load() & ScheduledIo::readiness_mask; }

constexpr std::uint32_t bits(io::Ready ready) { return static_cast<std::uint32_t>(ready); }

}  // namespace

TEST_CASE("an event advances the tick and a clear with that tick forgets its readiness" * POINTS(2)) {
  ScheduledIo scheduled;
  CHECK(scheduled.load() == 0);
  scheduled.set_readiness(io::readable);
  CHECK(ready_of(scheduled) == bits(io::readable));
  CHECK(tick_of(scheduled) == 1);

  // What a task saw before its read would block.
  ReadyEvent seen = scheduled.ready_event(io::Direction::read);
  CHECK(bits(seen.ready) == bits(io::readable));
  CHECK(seen.tick == 1);
  CHECK_FALSE(seen.is_shutdown);
  CHECK(bits(scheduled.ready_event(io::Direction::write).ready) == bits(io::none));
  scheduled.clear_readiness(seen);
  CHECK(ready_of(scheduled) == bits(io::none));
  CHECK(tick_of(scheduled) == 1);  // clearing is no event

  scheduled.set_readiness(io::writable);
  CHECK(tick_of(scheduled) == 2);
  CHECK(bits(scheduled.ready_event(io::Direction::write).ready) == bits(io::writable));
  CHECK(bits(scheduled.ready_event(io::Direction::read).ready) == bits(io::none));

  // The tick wraps within its 15 bits, and never reaches the shutdown bit.
  for (std::uint32_t i = 0; i <= ScheduledIo::tick_mask; ++i) scheduled.set_readiness(io::writable);
  CHECK(tick_of(scheduled) == 2);
  CHECK((scheduled.load() & ScheduledIo::shutdown_bit) == 0);
  CHECK_FALSE(scheduled.ready_event(io::Direction::write).is_shutdown);
}

TEST_CASE("a clear with an older tick keeps the readiness of a newer event" * POINTS(2)) {
  ScheduledIo scheduled;
  scheduled.set_readiness(io::readable);
  ReadyEvent stale = scheduled.ready_event(io::Direction::read);
  // The read would block; before the task clears, new data comes in.
  scheduled.set_readiness(io::readable);
  scheduled.clear_readiness(stale);
  INFO("the new data's readiness must stay, or the task sleeps while it waits unread");
  CHECK(ready_of(scheduled) == bits(io::readable));

  ReadyEvent fresh = scheduled.ready_event(io::Direction::read);
  CHECK(fresh.tick == stale.tick + 1);
  scheduled.clear_readiness(fresh);
  CHECK(ready_of(scheduled) == bits(io::none));

  // A clear forgets what its event reported, and nothing else.
  scheduled.set_readiness(io::readable | io::writable);
  scheduled.clear_readiness(scheduled.ready_event(io::Direction::read));
  CHECK(ready_of(scheduled) == bits(io::writable));
}

TEST_CASE("the closed bits are never cleared" * POINTS(1)) {
  ScheduledIo scheduled;
  scheduled.set_readiness(io::readable | io::read_closed);
  ReadyEvent seen = scheduled.ready_event(io::Direction::read);
  CHECK(bits(seen.ready) == bits(io::readable | io::read_closed));
  scheduled.clear_readiness(seen);
  CHECK(ready_of(scheduled) == bits(io::read_closed));

  scheduled.set_readiness(io::writable | io::write_closed);
  scheduled.clear_readiness(scheduled.ready_event(io::Direction::write));
  CHECK(ready_of(scheduled) == bits(io::read_closed | io::write_closed));
  // Cleared with their own tick and all: a closed direction stays closed.
  scheduled.clear_readiness({tick_of(scheduled), io::closed, false});
  CHECK(ready_of(scheduled) == bits(io::read_closed | io::write_closed));
}

TEST_CASE("shutdown wakes every waiting task and ends every later wait" * POINTS(1)) {
  CountingWaker reader;  // before the ScheduledIo: it may hold their clones
  CountingWaker writer;
  ScheduledIo scheduled;
  rt::Context read_cx(reader.waker());
  rt::Context write_cx(writer.waker());
  CHECK_FALSE(scheduled.poll_readiness(read_cx, io::Direction::read).has_value());
  CHECK_FALSE(scheduled.poll_readiness(write_cx, io::Direction::write).has_value());
  CHECK(reader.held() == 1);
  CHECK(writer.held() == 1);

  scheduled.shutdown();
  CHECK(reader.wakes() == 1);
  CHECK(writer.wakes() == 1);
  CHECK(reader.held() == 0);
  CHECK(writer.held() == 0);
  std::optional<ReadyEvent> read = scheduled.poll_readiness(read_cx, io::Direction::read);
  std::optional<ReadyEvent> write = scheduled.poll_readiness(write_cx, io::Direction::write);
  REQUIRE(read.has_value());
  REQUIRE(write.has_value());
  CHECK(read->is_shutdown);
  CHECK(write->is_shutdown);

  // An event after the shutdown changes nothing.
  std::uint32_t word = scheduled.load();
  scheduled.set_readiness(io::readable);
  CHECK(scheduled.load() == word);
}

TEST_CASE("an event wakes the reader for read readiness and the writer for write readiness" * POINTS(2)) {
  CountingWaker reader;
  CountingWaker writer;
  ScheduledIo scheduled;
  rt::Context read_cx(reader.waker());
  rt::Context write_cx(writer.waker());
  REQUIRE_FALSE(scheduled.poll_readiness(read_cx, io::Direction::read).has_value());
  REQUIRE_FALSE(scheduled.poll_readiness(write_cx, io::Direction::write).has_value());

  scheduled.set_readiness(io::readable);
  scheduled.wake(io::readable);
  CHECK(reader.wakes() == 1);
  CHECK(writer.wakes() == 0);
  CHECK(writer.held() == 1);  // still waiting
  // Ready now: the reader's poll says so, and leaves no waker.
  std::optional<ReadyEvent> read = scheduled.poll_readiness(read_cx, io::Direction::read);
  REQUIRE(read.has_value());
  CHECK(bits(read->ready) == bits(io::readable));
  CHECK(reader.held() == 0);

  scheduled.set_readiness(io::writable);
  scheduled.wake(io::writable);
  CHECK(writer.wakes() == 1);
  CHECK(reader.wakes() == 1);

  // Both wait again; the peer's end of stream is the reader's, an error
  // is for both.
  scheduled.clear_readiness(scheduled.ready_event(io::Direction::read));
  scheduled.clear_readiness(scheduled.ready_event(io::Direction::write));
  REQUIRE_FALSE(scheduled.poll_readiness(read_cx, io::Direction::read).has_value());
  REQUIRE_FALSE(scheduled.poll_readiness(write_cx, io::Direction::write).has_value());
  scheduled.set_readiness(io::read_closed);
  scheduled.wake(io::read_closed);
  CHECK(reader.wakes() == 2);
  CHECK(writer.wakes() == 1);
  CHECK(writer.held() == 1);
  scheduled.set_readiness(io::error);
  scheduled.wake(io::error);
  CHECK(writer.wakes() == 2);
}

TEST_CASE("a woken task may poll its registration again at once: wakers are woken after unlocking" * POINTS(1)) {
  // A wake may run the task's code on the spot (this test's waker polls;
  // in a runtime, a wake may drop a task's last reference, which frees its
  // registration): it must not find the registration's lock still held.
  // The task woken to read goes on to wait for write readiness, which
  // stores its waker under that lock.
  CountingWaker writer;
  ScheduledIo scheduled;
  rt::Context write_cx(writer.waker());
  std::optional<ReadyEvent> write_seen;
  bool polled = false;
  ch09::SharedWaker reader([&] {
    write_seen = scheduled.poll_readiness(write_cx, io::Direction::write);
    polled = true;
  });
  rt::Context read_cx(reader.waker());
  REQUIRE_FALSE(scheduled.poll_readiness(read_cx, io::Direction::read).has_value());
  scheduled.set_readiness(io::readable);
  scheduled.wake(io::readable);  // a deadlock here: the reader was woken under the lock
  CHECK(reader.wakes() == 1);
  REQUIRE(polled);
  CHECK_FALSE(write_seen.has_value());
  CHECK(writer.held() == 1);  // the waker stored from inside the wake

  scheduled.set_readiness(io::writable);
  scheduled.wake(io::writable);
  CHECK(writer.wakes() == 1);
}

namespace {

// What the hook delivers, at the moment a task has looked at the word and
// not yet stored its waker.
std::atomic<ScheduledIo*> deliver_to{nullptr};
std::atomic<io::Ready> deliver_ready{io::none};

void deliver_event() {
  if (ScheduledIo* scheduled = deliver_to.exchange(nullptr)) {
    io::Ready ready = deliver_ready.load();
    scheduled->set_readiness(ready);  // as the driver does: set, then wake
    scheduled->wake(ready);
  }
}

}  // namespace

TEST_CASE("an event between the first look and the storing of the waker is not lost" * POINTS(2)) {
  rt_test::ScopedHook<void (*)()> hook(rt::detail::before_io_waker_stored, &deliver_event);
  for (io::Direction direction : {io::Direction::read, io::Direction::write}) {
    INFO((direction == io::Direction::read ? "reading" : "writing"));
    CountingWaker waiting;
    ScheduledIo scheduled;
    rt::Context cx(waiting.waker());
    deliver_ready = direction == io::Direction::read ? io::readable : io::writable;
    deliver_to = &scheduled;
    std::optional<ReadyEvent> seen = scheduled.poll_readiness(cx, direction);
    REQUIRE(deliver_to.load() == nullptr);  // the hook delivered it
    // The event came after the first look found nothing, and its wake()
    // before the waker was stored: the poll must see it, or nobody will
    // ever wake this task.
    CHECK((seen.has_value() || waiting.wakes() == 1));
    deliver_to = nullptr;
  }
}

TEST_CASE("a second waiter's waker replaces the first one's: the event wakes the newer" * POINTS(2)) {
  // A stream handed to a new task, or a reader aborted and started again:
  // the waker kept from the first poll belongs to a task that no longer
  // waits. The event must wake the task that waits now.
  CountingWaker first;  // before the ScheduledIo: it may hold their clones
  CountingWaker second;
  ScheduledIo scheduled;
  rt::Context first_cx(first.waker());
  rt::Context second_cx(second.waker());
  REQUIRE_FALSE(scheduled.poll_readiness(first_cx, io::Direction::read).has_value());
  REQUIRE_FALSE(scheduled.poll_readiness(second_cx, io::Direction::read).has_value());
  INFO("the slot holds one waker: the newest poll's");
  CHECK(first.held() == 0);
  CHECK(second.held() == 1);

  scheduled.set_readiness(io::readable);
  scheduled.wake(io::readable);
  CHECK(second.wakes() == 1);
  CHECK(first.wakes() == 0);
}
