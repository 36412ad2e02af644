// Chapter 11: host names, looked up on the blocking pool. A numeric
// address is parsed at once and touches no thread; "localhost" goes to
// getaddrinfo on a blocking thread; connect tries each address it finds.
// Every socket here is on 127.0.0.1 (or ::1, which localhost may also be).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocking.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Runtime with_io(bool multi_thread) {
  if (multi_thread) return rt::Builder::new_multi_thread().worker_threads(1).enable_all().build();
  return rt::Builder::new_current_thread().enable_all().build();
}

template <class Body>
void on_each_flavour_with_io(Body body) {
  for (bool multi_thread : {false, true}) {
    INFO((multi_thread ? "on a multi-thread runtime with 1 worker" : "on the current-thread runtime"));
    rt::Runtime runtime = with_io(multi_thread);
    body(runtime);
  }
}

std::vector<std::string> texts(const std::vector<rt::net::SocketAddr>& addresses) {
  std::vector<std::string> out;
  for (const rt::net::SocketAddr& address : addresses) out.push_back(address.to_string());
  return out;
}

}  // namespace

TEST_CASE("lookup_host parses a numeric address at once and starts no blocking thread" * POINTS(1)) {
  on_each_flavour_with_io([](rt::Runtime& runtime) {
    CHECK(texts(runtime.block_on(rt::net::lookup_host("127.0.0.1:8080"))) == std::vector<std::string>{"127.0.0.1:8080"});
    CHECK(texts(runtime.block_on(rt::net::lookup_host("[::1]:80"))) == std::vector<std::string>{"[::1]:80"});
    CHECK(runtime.metrics().num_blocking_threads() == 0);
  });
}

TEST_CASE("lookup_host looks a host name up on a blocking thread" * POINTS(1)) {
  on_each_flavour_with_io([](rt::Runtime& runtime) {
    std::vector<std::string> found = texts(runtime.block_on(rt::net::lookup_host("localhost:6379")));
    bool v4 = std::find(found.begin(), found.end(), "127.0.0.1:6379") != found.end();
    bool v6 = std::find(found.begin(), found.end(), "[::1]:6379") != found.end();
    CHECK((v4 || v6));
    CHECK(runtime.metrics().num_blocking_threads() == 1);
  });
}

TEST_CASE("connect takes a host name and tries each address it finds" * POINTS(2)) {
  on_each_flavour_with_io([](rt::Runtime& runtime) {
    std::string echoed = runtime.block_on([]() -> rt::Task<std::string> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      std::string name = "localhost:" + std::to_string(listener.local_addr().port());
      // localhost may be ::1 first, where nobody listens: then 127.0.0.1.
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(name);
      auto [server, peer] = co_await listener.accept();
      co_await client.write_all("hi");
      char buffer[2];
      co_await server.read_exact(buffer);
      co_return std::string(buffer, 2);
    }());
    CHECK(echoed == "hi");
  });
}

TEST_CASE("bind takes the addresses lookup_host found and text that is no host:port is refused" * POINTS(1)) {
  on_each_flavour_with_io([](rt::Runtime& runtime) {
    std::uint16_t port = runtime.block_on([]() -> rt::Task<std::uint16_t> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind(co_await rt::net::lookup_host("127.0.0.1:0"));
      co_return listener.local_addr().port();
    }());
    CHECK(port != 0);
    CHECK_THROWS_AS(runtime.block_on(rt::net::lookup_host("localhost")), std::invalid_argument);
    CHECK_THROWS_AS(runtime.block_on(rt::net::lookup_host("127.0.0.1:http")), std::invalid_argument);
  });
}
