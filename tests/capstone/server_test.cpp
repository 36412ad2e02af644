// The server embedded in a program of one's own (capstone/server.hpp), on
// both flavours of chapter 12's runtime: serving, the graceful stop, the
// grace period, and the purge task on the runtime's timers.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "capstone/server.hpp"
#include "rt/rt.hpp"

using namespace std::chrono_literals;

namespace {

template <class Body>
void on_each_flavour(Body body) {
  {
    INFO("on the current-thread runtime");
    rt::Runtime runtime = rt::Builder::new_current_thread().enable_all().build();
    body(runtime);
  }
  {
    INFO("on a multi-thread runtime of 2 workers");
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).enable_all().build();
    body(runtime);
  }
}

rt::Task<std::string> read_exactly(rt::net::TcpStream& stream, std::size_t n) {
  std::string bytes(n, '\0');
  co_await stream.read_exact(bytes);
  co_return bytes;
}

// Everything until the server closes the connection.
rt::Task<std::string> read_to_end(rt::net::TcpStream& stream) {
  std::string bytes;
  char buffer[4096];
  for (;;) {
    std::size_t n = co_await stream.read(buffer);
    if (n == 0) co_return bytes;
    bytes.append(buffer, n);
  }
}

}  // namespace

TEST_CASE("a server spawned in the program's runtime answers, and returns once stopped") {
  on_each_flavour([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      rt::CancellationToken stop;
      rt::JoinHandle<void> server = rt::spawn(redis::serve(std::move(listener), stop));
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
      co_await client.write_all("SET k v\r\nGET k\r\n");
      CHECK(co_await read_exactly(client, 12) == "+OK\r\n$1\r\nv\r\n");
      stop.cancel();
      co_await server;
      CHECK(co_await read_to_end(client) == "");
      bool refused = false;
      try {
        co_await rt::net::TcpStream::connect(address);
      } catch (const std::system_error&) {
        refused = true;
      }
      CHECK(refused);
    }());
  });
}

TEST_CASE("a stopped server answers the requests that have arrived, then closes") {
  on_each_flavour([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      rt::CancellationToken stop;
      rt::JoinHandle<void> server = rt::spawn(redis::serve(std::move(listener), stop));
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
      co_await client.write_all("PING\r\n");
      CHECK(co_await read_exactly(client, 7) == "+PONG\r\n");  // accepted and served
      co_await client.write_all("ECHO last\r\n*1\r\n$4\r\nPI");  // whole, then cut short
      stop.cancel();
      co_await server;
      CHECK(co_await read_to_end(client) == "$4\r\nlast\r\n");
    }());
  });
}

TEST_CASE("a connection that outlasts the grace period is aborted, and the server returns") {
  on_each_flavour([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      rt::CancellationToken stop;
      redis::ServeOptions options;
      options.grace = 50ms;
      rt::JoinHandle<void> server = rt::spawn(redis::serve(std::move(listener), stop, options));
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
      // A reply larger than both sockets' buffers can hold, never read:
      // the server's write of it can never finish.
      std::string value(32 << 20, 'v');
      co_await client.write_all("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$" + std::to_string(value.size()) + "\r\n");
      co_await client.write_all(value);
      co_await client.write_all("\r\n");
      CHECK(co_await read_exactly(client, 5) == "+OK\r\n");
      co_await client.write_all("GET big\r\n");
      stop.cancel();
      co_await server;  // once the grace period is over
    }());
  });
}

TEST_CASE("the purge task removes a key nobody reads, once its time is past, on the runtime's clock") {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_all().start_paused(true).build();
  runtime.block_on([]() -> rt::Task<> {
    rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
    rt::net::SocketAddr address = listener.local_addr();
    rt::CancellationToken stop;
    rt::JoinHandle<void> server = rt::spawn(redis::serve(std::move(listener), stop));
    rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
    rt::time::Instant set_at = rt::time::Instant::now();
    co_await client.write_all("SET k v PX 100000\r\n");
    CHECK(co_await read_exactly(client, 5) == "+OK\r\n");
    // The clock is paused: each sleep moves it on at once, and the purge
    // runs whenever its timer comes due meanwhile.
    bool purged = false;
    for (int second = 0; second < 200 && !purged; ++second) {
      co_await rt::time::sleep(1s);
      rt::time::Instant asked_at = rt::time::Instant::now();
      co_await client.write_all("DBSIZE\r\n");
      purged = co_await read_exactly(client, 4) == ":0\r\n";
      if (purged) CHECK(asked_at - set_at > 100s);  // not before its time
    }
    CHECK(purged);
    stop.cancel();
    co_await server;
  }());
}
