// Chapter 12: graceful shutdown, the pattern the capstone's server uses.
// The accept loop waits on the listener and on a cancellation token at
// once (rt::select); connections live in a JoinSet; on cancel the loop
// stops accepting, the connection in progress finishes its exchange, and
// the server task ends. Every step is ordered by the messages themselves.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Answers each 4-byte request with the same 4 bytes, until the client
// closes or the token is cancelled between two requests. Readiness is a
// hint: select may say "readable" for bytes already read, so the read is a
// try_read, which clears a stale readiness and goes back to waiting.
rt::Task<> serve(rt::net::TcpStream stream, rt::CancellationToken stop) {
  char buffer[4];
  std::size_t have = 0;
  for (;;) {
    auto readable = stream.readable();
    auto stopped = stop.cancelled();
    if (have == 0 && co_await rt::select(readable, stopped) == 1) co_return;  // drained: nothing half read
    if (have != 0) co_await readable;
    std::optional<std::size_t> n = stream.try_read(std::span<char>(buffer + have, 4 - have));
    if (!n) continue;  // nothing there after all: wait again
    if (*n == 0) co_return;
    have += *n;
    if (have < 4) continue;
    co_await stream.write_all(std::string_view(buffer, 4));
    have = 0;
  }
}

rt::Task<int> accept_until_cancelled(rt::net::TcpListener& listener, rt::CancellationToken stop) {
  rt::JoinSet<void> connections;
  int accepted = 0;
  for (;;) {
    auto accept = listener.accept();
    auto stopped = stop.cancelled();
    if (co_await rt::select(accept, stopped) == 1) break;
    connections.spawn(serve(accept.await_resume().first, stop));
    ++accepted;
  }
  while (co_await connections.join_next()) {
  }
  co_return accepted;
}

}  // namespace

TEST_CASE("on cancel a server stops accepting lets its connection finish and ends" * POINTS(3)) {
  for (bool multi_thread : {false, true}) {
    INFO(std::string(multi_thread ? "on a multi-thread runtime" : "on the current-thread runtime"));
    rt::Runtime runtime = multi_thread ? rt::Builder::new_multi_thread().worker_threads(2).enable_all().build()
                                       : rt::Builder::new_current_thread().enable_all().build();
    runtime.block_on([]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::CancellationToken stop;
      rt::JoinHandle<int> server = rt::spawn(accept_until_cancelled(listener, stop));
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(listener.local_addr());
      co_await client.write_all("ping");
      char answer[4];
      co_await client.read_exact(std::span<char>(answer, 4));
      CHECK(std::string_view(answer, 4) == "ping");
      stop.cancel();
      int accepted = co_await server;
      CHECK_MESSAGE(accepted == 1, "the server accepted other than the one connection");
      // The connection's task ended: it closed its side.
      std::size_t n = co_await client.read(std::span<char>(answer, 4));
      CHECK_MESSAGE(n == 0, "the connection was not closed when the server ended");
    }());
  }
}
