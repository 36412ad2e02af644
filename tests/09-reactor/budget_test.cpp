// Chapter 09: a socket is a runtime resource like chapter 08's channels: a
// task whose reads (or writes) are always ready spends a unit of its
// budget on each, and yields after 128, so that another task runs. As in
// chapter 08 (tests/08-coop/race.hpp), on a current-thread runtime: task A
// does its operations, task B, spawned right after it, records how many A
// had done when B first ran. (Tokio's E5, on a socket.)
#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "graded.hpp"
#include "io.hpp"
#include "rt/rt.hpp"

namespace {

constexpr std::size_t total = 1000;

// How far A got when B first ran; A does `operation` `total` times.
template <class Operation>
std::size_t progress_when_the_other_ran(rt::Runtime& runtime, Operation operation) {
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> seen{0};
  runtime.block_on([&]() -> rt::Task<> {
    auto a = rt::spawn([&]() -> rt::Task<> {
      for (std::size_t i = 0; i < total; ++i) {
        co_await operation();
        done.fetch_add(1);
      }
    });
    auto b = rt::spawn([&]() -> rt::Task<> {
      seen = done.load();
      co_return;
    });
    co_await a;
    co_await b;
  }());
  return seen.load();
}

}  // namespace

TEST_CASE("a task reading or writing one byte at a time on an always ready socket lets another task run after 128" *
          POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().build();
  std::optional<rt::net::TcpStream> stream;
  rt_test::RawSocket peer;
  runtime.block_on([&]() -> rt::Task<> {
    auto [accepted, raw] = co_await rt_test::stream_with_raw_peer();
    // Everything A will read is there before A starts, and the driver
    // has recorded it: every read below is ready at once.
    rt_test::send_raw(raw.fd(), std::string(total, 'r'));
    rt_test::wait_for_bytes(accepted.fd(), static_cast<int>(total));
    co_await accepted.readable();
    co_await accepted.writable();
    stream.emplace(std::move(accepted));
    peer = std::move(raw);
  }());
  char byte = 0;
  {
    INFO("reading");
    CHECK(progress_when_the_other_ran(runtime, [&]() -> rt::Task<> {
      co_await stream->read(std::span<char>(&byte, 1));
    }) == 128);
  }
  {
    INFO("writing");  // far less than the socket buffers hold: always ready too
    CHECK(progress_when_the_other_ran(runtime, [&]() -> rt::Task<> { co_await stream->write("w"); }) == 128);
  }
}
