// Chapter 09: TCP through the reactor: an echo server and its clients.
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<> echo(rt::net::TcpStream stream) {
  char buffer[256];
  for (;;) {
    std::size_t n = co_await stream.read(buffer);
    if (n == 0) co_return;
    co_await stream.write_all(std::string_view(buffer, n));
  }
}

}  // namespace

TEST_CASE("a message written to an echo server comes back" * POINTS(2)) {
  for (bool multi : {false, true}) {
    rt::Runtime runtime = multi ? rt::Builder::new_multi_thread().worker_threads(2).enable_io().build()
                                : rt::Builder::new_current_thread().enable_io().build();
    std::string got = runtime.block_on([]() -> rt::Task<std::string> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      auto server = rt::spawn([&listener]() -> rt::Task<> {
        auto [stream, peer] = co_await listener.accept();
        co_await echo(std::move(stream));
      });
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
      co_await client.write_all("hello");
      std::string reply(5, '\0');
      co_await client.read_exact(reply);
      co_return reply;
    }());
    CHECK(got == "hello");
  }
}
