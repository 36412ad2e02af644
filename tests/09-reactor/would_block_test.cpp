// Chapter 09: an operation whose system call would block after all
// (EAGAIN: the readiness it saw was stale) clears that readiness and waits
// for the next event, its waker stored; and an event that arrives between
// the EAGAIN and the clear is not forgotten. The moments are forced with
// the runtime's hook rt::detail::after_would_block, which runs between the
// two: no timing decides what the test sees. try_read, which never waits,
// clears stale readiness too, or readable() would be ready for ever.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "graded.hpp"
#include "io.hpp"
#include "rt/rt.hpp"
#include "scoped_hook.hpp"
#include "wakers.hpp"
#include "would_block_counter.hpp"

namespace {

using WouldBlockHook = rt_test::ScopedHook<void (*)(rt::detail::ScheduledIo&)>;

std::uint32_t tick_of(std::uint32_t word) {
  return (word >> rt::detail::ScheduledIo::tick_shift) & rt::detail::ScheduledIo::tick_mask;
}

// A stream with one byte read and its readiness left stale: the next read
// would block. Inside block_on; the peer sends nothing more by itself.
rt::Task<std::pair<rt::net::TcpStream, rt_test::RawSocket>> stream_read_dry() {
  auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
  rt_test::send_raw(peer.fd(), "a");
  char first = 0;
  co_await stream.read(std::span<char>(&first, 1));
  co_return std::pair<rt::net::TcpStream, rt_test::RawSocket>(std::move(stream), std::move(peer));
}

}  // namespace

TEST_CASE("a read that would block clears the stale readiness and waits with its waker stored" * POINTS(2)) {
  // `exact`: a current-thread runtime, where only this test turns the driver.
  auto body = [](rt::Runtime& runtime, bool exact) {
    ch09::WouldBlockCounter would_blocks;
    ch09::SharedWaker waiting;
    bool pending = false;
    int calls = 0;
    int woken = 0;
    bool ready = false;
    char second = 0;
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await stream_read_dry();
      rt::io::Read read = stream.read(std::span<char>(&second, 1));
      rt::Context cx(waiting.waker());
      would_blocks.start();
      pending = !read.poll(cx);
      calls = would_blocks.stop();
      if (!pending) co_return;
      rt_test::send_raw(peer.fd(), "b");
      // Loopback data can reach the socket after send returns: wait for
      // it, so that any wake-up from here on (a worker may still hold the
      // event for "a") finds "b" to read.
      rt_test::wait_for_data(stream.fd());
      rt::detail::Driver& driver = rt_test::current_driver();
      if (exact) {
        driver.poll();  // delivers the event, and wakes whoever waits
      } else {
        rt_test::turn_until(driver, [&] { return waiting.wakes() > 0; });
      }
      woken = waiting.wakes();
      ready = read.poll(cx) && read.await_resume() == 1;
    }());
    INFO("one EAGAIN, then the readiness is cleared and the read waits");
    REQUIRE(pending);
    CHECK(calls == 1);
    INFO("the next event must find the waker stored");
    REQUIRE(woken == 1);
    CHECK(ready);
    CHECK(second == 'b');
  };
  rt_test::on_current_thread_io([&](rt::Runtime& runtime) { body(runtime, true); });
  rt_test::on_multi_thread_io([&](rt::Runtime& runtime) { body(runtime, false); });
}

namespace {

// What the hook does, once armed: send to the peer and have the event
// delivered (readiness set, tick advanced) before the operation clears.
struct Interleaving {
  std::atomic<bool> armed{false};
  std::atomic<bool> delivered{false};
  int peer_fd = -1;
  int stream_fd = -1;
  rt::detail::Driver* driver = nullptr;
  bool exact = false;  // a current-thread runtime: one turn delivers it
};
std::atomic<Interleaving*> interleaving{nullptr};

void deliver_before_clear(rt::detail::ScheduledIo& scheduled) {
  Interleaving* state = interleaving.load();
  if (!state || !state->armed.exchange(false)) return;
  std::uint32_t tick = tick_of(scheduled.load());
  rt_test::send_raw(state->peer_fd, "b");
  rt_test::wait_for_data(state->stream_fd);
  if (state->exact) {
    state->driver->poll();
  } else {
    // A worker may hold the driver, asleep in it: it dispatches, then.
    rt_test::turn_until(*state->driver, [&] { return tick_of(scheduled.load()) != tick; });
  }
  state->delivered = true;
}

// The reader of the second half: two reads, the second one racing the
// hook's event.
rt::Task<std::string> read_twice(rt::net::TcpStream stream, Interleaving& state) {
  char bytes[2] = {0, 0};
  co_await stream.read(std::span<char>(bytes, 1));
  state.armed = true;
  co_await stream.read(std::span<char>(bytes + 1, 1));
  co_return std::string(bytes, 2);
}

}  // namespace

TEST_CASE("an event that arrives between a would-block read and its clear is not lost" * POINTS(3)) {
  WouldBlockHook hook(rt::detail::after_would_block, &deliver_before_clear);
  // Each on a runtime of its own: the hook turns the driver from a thread
  // that is not a worker (the test's, polling by hand), and a worker that
  // went to park while it held the driver sleeps on its condition
  // variable; a later wait for I/O would find nobody in the driver.
  auto by_hand = [](rt::Runtime& runtime, bool exact) {
    INFO("a read polled by hand");
    Interleaving state;
    interleaving = &state;
    ch09::SharedWaker waiting;
    bool ready = false;
    char second = 0;
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await stream_read_dry();
      state.peer_fd = peer.fd();
      state.stream_fd = stream.fd();
      state.driver = &rt_test::current_driver();
      state.exact = exact;
      rt::io::Read read = stream.read(std::span<char>(&second, 1));
      rt::Context cx(waiting.waker());
      state.armed = true;
      // EAGAIN; the hook delivers "b"; the clear must keep its readiness,
      // and the read then finds it, in this same poll.
      ready = read.poll(cx) && read.await_resume() == 1;
    }());
    interleaving = nullptr;
    REQUIRE(state.delivered.load());
    INFO("its readiness was cleared with the stale one: the data waits, unread, and nobody will wake the reader");
    REQUIRE(ready);
    CHECK(second == 'b');
  };
  auto in_a_task = [](rt::Runtime& runtime, bool exact) {
    INFO("a task reading");
    Interleaving state;
    interleaving = &state;
    std::string got = runtime.block_on([&]() -> rt::Task<std::string> {
      auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
      state.peer_fd = peer.fd();
      state.stream_fd = stream.fd();
      state.driver = &rt_test::current_driver();
      state.exact = exact;
      rt_test::send_raw(peer.fd(), "a");
      co_return co_await rt::spawn(read_twice(std::move(stream), state));
    }());
    interleaving = nullptr;
    CHECK(state.delivered.load());
    CHECK(got == "ab");
  };
  // By hand first: where the clear is wrong, it fails there at once, and
  // the task, which would wait for ever, never runs.
  rt_test::on_current_thread_io([&](rt::Runtime& runtime) { by_hand(runtime, true); });
  rt_test::on_multi_thread_io([&](rt::Runtime& runtime) { by_hand(runtime, false); });
  rt_test::on_current_thread_io([&](rt::Runtime& runtime) { in_a_task(runtime, true); });
  rt_test::on_multi_thread_io([&](rt::Runtime& runtime) { in_a_task(runtime, false); });
}

TEST_CASE("a try_read that would block clears the stale readiness: readable() then waits for the next event" * POINTS(2)) {
  // The loop a server writes with try_read: await readable(), try_read
  // until it would block, await readable() again. If the would-block
  // leaves the stale readiness, readable() is ready at once for ever and
  // the loop spins without reading anything.
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    ch09::SharedWaker waiting;
    std::optional<std::size_t> dry;
    bool waits = false;
    int woken = 0;
    std::optional<std::size_t> got;
    char buffer[4] = {};
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await stream_read_dry();
      dry = stream.try_read(buffer);
      rt::io::Readiness readable = stream.readable();
      rt::Context cx(waiting.waker());
      waits = !readable.poll(cx);
      if (!waits) co_return;
      rt_test::send_raw(peer.fd(), "b");
      rt_test::wait_for_data(stream.fd());
      rt_test::current_driver().poll();  // the only turn: it delivers "b"
      woken = waiting.wakes();
      got = stream.try_read(buffer);
    }());
    CHECK_FALSE(dry.has_value());
    INFO("after a would-block, readable() must wait for the next event, its waker stored");
    REQUIRE(waits);
    CHECK(woken == 1);
    REQUIRE(got.has_value());
    CHECK(*got == 1);
    CHECK(buffer[0] == 'b');
  });
}
