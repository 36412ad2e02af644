// Chapter 09: the I/O driver, turned by hand inside block_on: an event
// wakes the task waiting for it; an unread socket is reported once per
// event (edge-triggered), not on every turn; a socket closed by a wake-up
// in the middle of a turn is not freed under the driver's feet; a socket
// is registered only once it is connected or listening, so that a driver
// turning meanwhile on another thread records no false hang-up.
//
// On a current-thread runtime, inside block_on, nothing else turns the
// driver: each poll() below is the only turn, and its events are exactly
// those the test caused (the peers are raw sockets, registered nowhere).
// The connections are accepted by hand too: no test here waits for a
// wake-up it does not check. The one exception is the last test, on a
// multi-thread runtime: whether a driver asleep with no event to come is
// woken to free released registrations.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "io.hpp"
#include "rt/io/registration_set.hpp"
#include "rt/rt.hpp"
#include "scoped_hook.hpp"
#include "wakers.hpp"
#include "would_block_counter.hpp"

TEST_CASE("an event wakes the task that waits for it" * POINTS(2)) {
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    ch09::SharedWaker waiting;
    bool pending = false;
    std::uint64_t events = 0;
    bool ready = false;
    char byte = 0;
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await rt_test::stream_with_raw_peer(rt_test::Accepting::by_hand);
      rt::detail::Driver& driver = rt_test::current_driver();
      driver.poll();  // what connecting brought
      rt::io::Read read = stream.read(std::span<char>(&byte, 1));
      rt::Context cx(waiting.waker());
      pending = !read.poll(cx);
      rt_test::send_raw(peer.fd(), "x");
      rt_test::wait_for_data(stream.fd());
      std::uint64_t before = runtime.metrics().io_driver_ready_count();
      driver.poll();
      events = runtime.metrics().io_driver_ready_count() - before;
      ready = read.poll(cx) && read.await_resume() == 1;
    }());
    CHECK(pending);
    CHECK(events == 1);
    INFO("the event was delivered; the task waiting for it must be woken");
    CHECK(waiting.wakes() == 1);
    CHECK(ready);
    CHECK(byte == 'x');
  });
}

TEST_CASE("a socket nobody reads is reported once per event and not on every turn" * POINTS(2)) {
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    std::uint64_t reported = 0;
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await rt_test::stream_with_raw_peer(rt_test::Accepting::by_hand);
      rt::detail::Driver& driver = rt_test::current_driver();
      driver.poll();  // what connecting brought
      std::uint64_t before = runtime.metrics().io_driver_ready_count();
      rt_test::send_raw(peer.fd(), "nobody reads this");
      rt_test::wait_for_data(stream.fd());
      for (int turn = 0; turn < 10; ++turn) driver.poll();
      reported = runtime.metrics().io_driver_ready_count() - before;
    }());
    INFO("one event, ten turns: the readiness word remembers it, epoll must not repeat it");
    CHECK(reported == 1);
  });
}

TEST_CASE("a socket closed by a wake-up in the middle of a turn is freed only after the turn" * POINTS(2)) {
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    std::optional<rt::net::TcpStream> first;
    std::optional<rt::net::TcpStream> second;
    // Each closes the other's socket when the driver wakes it: whichever
    // event comes first, the other is still in the same turn's hands.
    ch09::SharedWaker wakes_first([&] { second.reset(); });
    ch09::SharedWaker wakes_second([&] { first.reset(); });
    bool pending = false;
    std::size_t held_before = 0;
    std::size_t held_after_the_turn = 0;
    std::size_t held_after_the_next = 0;
    runtime.block_on([&]() -> rt::Task<> {
      auto [first_stream, first_peer] = co_await rt_test::stream_with_raw_peer(rt_test::Accepting::by_hand);
      auto [second_stream, second_peer] = co_await rt_test::stream_with_raw_peer(rt_test::Accepting::by_hand);
      first.emplace(std::move(first_stream));
      second.emplace(std::move(second_stream));
      int first_fd = first->fd();
      int second_fd = second->fd();
      rt::detail::Driver& driver = rt_test::current_driver();
      driver.poll();  // what connecting brought, and the listeners freed
      held_before = driver.io()->registrations_held();
      rt::io::Readiness first_readable = first->readable();
      rt::io::Readiness second_readable = second->readable();
      rt::Context first_cx(wakes_first.waker());
      rt::Context second_cx(wakes_second.waker());
      pending = !first_readable.poll(first_cx) && !second_readable.poll(second_cx);
      rt_test::send_raw(first_peer.fd(), "1");
      rt_test::send_raw(second_peer.fd(), "2");
      rt_test::wait_for_data(first_fd);
      rt_test::wait_for_data(second_fd);
      // One turn, two events: the first one's wake-up deregisters the
      // other socket before its event is dispatched. (Under
      // AddressSanitizer, a registration freed at once is a
      // use-after-free here.)
      driver.poll();
      held_after_the_turn = driver.io()->registrations_held();
      driver.poll();  // the next turn frees what the last one released
      held_after_the_next = driver.io()->registrations_held();
    }());
    CHECK(pending);
    INFO("registrations held before the turn: " << held_before << ", after it: " << held_after_the_turn
         << ", after the next: " << held_after_the_next);
    INFO("a registration released during a turn is freed at the next turn, not at once: "
         "an event naming it may still be in the driver's hands");
    CHECK(held_after_the_turn == held_before);
    CHECK(held_after_the_next + 2 == held_before);
    CHECK(wakes_first.wakes() == 1);
    CHECK(wakes_second.wakes() == 1);
    CHECK_FALSE(first.has_value());
    CHECK_FALSE(second.has_value());
    CHECK(runtime.metrics().io_driver_fd_deregistered_count() == 4);  // two listeners, two streams
  });
}

TEST_CASE("a new listener and a new connection report no hang-up while a worker waits in the driver" * POINTS(2)) {
  // A socket not yet listening or connected reports a hang-up (EPOLLHUP)
  // to epoll. Registered then, a worker asleep in the driver wakes at
  // once and records it: closed for good, while it is not.
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).enable_io().build();
  pid_t worker = runtime.block_on([]() -> rt::Task<pid_t> {
    co_return co_await rt::spawn([]() -> rt::Task<pid_t> { co_return rt_test::current_tid(); });
  }());
  ch09::WouldBlockCounter would_blocks;
  for (int round = 0; round < 20; ++round) {
    INFO("round " << round);
    bool client_quiet = false;
    bool server_quiet = false;
    bool listener_quiet = false;
    int listener_would_blocks = 0;
    runtime.block_on([&]() -> rt::Task<> {
      ch09::SharedWaker waiting;
      rt::Context cx(waiting.waker());
      rt_test::wait_until_in_epoll_wait(worker);
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt_test::wait_until_in_epoll_wait(worker);
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(listener.local_addr());
      auto [server, peer] = co_await listener.accept();
      // Events are dispatched in order: a false hang-up would have come
      // before the ones that completed the connect and the accept.
      rt::io::Readiness client_readable = client.readable();
      rt::io::Readiness server_readable = server.readable();
      client_quiet = !client_readable.poll(cx);
      server_quiet = !server_readable.poll(cx);
      // No connection waits: accept would block once, clear, and wait.
      would_blocks.start();
      auto accept = listener.accept();
      listener_quiet = !accept.poll(cx);
      listener_would_blocks = would_blocks.stop();
    }());
    CHECK(client_quiet);
    CHECK(server_quiet);
    CHECK(listener_quiet);
    CHECK(listener_would_blocks == 1);
    if (!client_quiet || !server_quiet || !listener_quiet) break;
  }
}

TEST_CASE("an event that makes a socket writable only does not wake the task waiting to read" * POINTS(2)) {
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    ch09::SharedWaker waiting;
    bool pending = false;
    std::uint64_t events = 0;
    int woken_by_write = -1;
    bool ready_after_data = false;
    runtime.block_on([&]() -> rt::Task<> {
      auto [stream, peer] = co_await rt_test::stream_with_raw_peer(rt_test::Accepting::by_hand);
      rt::detail::Driver& driver = rt_test::current_driver();
      rt::io::Readiness readable = stream.readable();
      rt::Context cx(waiting.waker());
      pending = !readable.poll(cx);
      // The new connection's first event: writable, nothing to read.
      std::uint64_t before = runtime.metrics().io_driver_ready_count();
      driver.poll();
      events = runtime.metrics().io_driver_ready_count() - before;
      woken_by_write = waiting.wakes();
      rt_test::send_raw(peer.fd(), "r");
      rt_test::wait_for_data(stream.fd());
      driver.poll();
      ready_after_data = waiting.wakes() == 1 && readable.poll(cx);
    }());
    REQUIRE(pending);
    INFO("the turn must deliver the connection's write readiness (else this test proves nothing)");
    REQUIRE(events >= 1);
    INFO("only write readiness came: the reader must sleep on");
    CHECK(woken_by_write == 0);
    INFO("then data came: now the reader is woken, and finds it readable");
    CHECK(ready_after_data);
  });
}

TEST_CASE("an unpark of the driver is no I/O event: io_driver_ready_count does not count it" * POINTS(1)) {
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    std::uint64_t counted = 0;
    runtime.block_on([&]() -> rt::Task<> {
      rt::detail::Driver& driver = rt_test::current_driver();
      driver.poll();  // whatever the runtime's start brought
      std::uint64_t before = runtime.metrics().io_driver_ready_count();
      for (int i = 0; i < 3; ++i) {
        driver.unpark();
        driver.poll();
      }
      counted = runtime.metrics().io_driver_ready_count() - before;
      co_return;
    }());
    INFO("three unparks, no socket event: io_driver_ready_count counts socket events only");
    CHECK(counted == 0);
  });
}

TEST_CASE("connections opened and closed leave no registration behind once the driver has turned" * POINTS(2)) {
  // A released registration waits for the driver's next turn to be freed
  // (an event for it may still be in that turn's hands); a turn that never
  // frees them keeps one per connection for the runtime's whole life.
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    std::size_t before = 0;
    std::size_t after = 0;
    constexpr std::size_t connections = 40;
    runtime.block_on([&]() -> rt::Task<> {
      rt::detail::Driver& driver = rt_test::current_driver();
      const auto& io = driver.io();
      driver.poll();
      before = io->registrations_held();
      for (std::size_t i = 0; i < connections; ++i) {
        auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
        driver.poll();
      }
      driver.poll();
      driver.poll();
      after = io->registrations_held();
    }());
    INFO("registrations held before: " << before << ", after " << connections << " connections came and went: " << after);
    CHECK(after <= before);
  });
}

TEST_CASE("registrations released in bulk are freed while the driver sleeps with no event coming" * POINTS(2)) {
  // Each release waits for the driver's next turn; a driver asleep in
  // epoll_wait with nothing to report turns only when woken. Every
  // RegistrationSet::notify_after releases it must be woken to free them,
  // or a server that closed a burst of connections holds them until the
  // next event, which may never come.
  rt_test::on_multi_thread_io([](rt::Runtime& runtime) {
    constexpr std::size_t connections = 3 * rt::detail::RegistrationSet::notify_after;
    std::size_t held_open = 0;
    std::size_t held_after = 0;
    runtime.block_on([&]() -> rt::Task<> {
      const auto& io = rt_test::current_driver().io();
      std::vector<rt::net::TcpStream> streams;
      std::vector<rt_test::RawSocket> peers;
      for (std::size_t i = 0; i < connections; ++i) {
        auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
        streams.push_back(std::move(stream));
        peers.push_back(std::move(peer));
      }
      held_open = io->registrations_held();
      streams.clear();  // released at once, from this thread, not a worker
      // The workers are idle: one asleep in the driver, which no socket
      // event will wake. Bounded, so that a driver never woken fails here.
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while ((held_after = io->registrations_held()) >= rt::detail::RegistrationSet::notify_after &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
      }
    }());
    INFO("registrations held with " << connections << " streams open: " << held_open
                                    << "; after they were dropped, with no event since: " << held_after);
    CHECK(held_open >= connections);
    CHECK(held_after < rt::detail::RegistrationSet::notify_after);
  });
}
