// echo_1, echo_10, echo_100: a TCP echo server on 127.0.0.1 and 1, 10 or
// 100 clients, all tasks of the same runtime; each client writes 64 bytes
// and reads exactly 64 back, over and over. The cost of a round trip
// through the I/O driver: two sends, two receives, and the wake-ups in
// between. The server is Tokio's echo example (examples/echo.rs); the
// connections are opened once, with the runtime, so that an iteration
// times round trips and not handshakes. Needs rt::net (chapter 09).
#pragma once

#include <array>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "../workloads.hpp"
#include "runtime.hpp"

namespace bench::course {

#ifdef RT_HAS_IO

// The server's side of one connection: whatever comes in goes back out,
// until the client closes it.
inline rt::Task<> serve(rt::net::TcpStream stream) {
  std::array<char, 1024> buffer;
  for (;;) {
    std::size_t n = co_await stream.read(buffer);
    if (n == 0) co_return;
    co_await stream.write_all(std::string_view(buffer.data(), n));
  }
}

inline rt::Task<> accept_connections(rt::net::TcpListener listener, long connections) {
  for (long i = 0; i < connections; ++i) {
    auto [stream, peer] = co_await listener.accept();
    stream.set_nodelay(true);
    (void)rt::spawn(serve(std::move(stream)));  // detached: it ends when its client closes
  }
}

// The listener on a port the system picks, and `connections` clients
// connected to it (their server sides accepted and served).
inline rt::Task<std::vector<rt::net::TcpStream>> open_connections(long connections) {
  rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
  rt::net::SocketAddr address = listener.local_addr();
  auto accepting = rt::spawn(accept_connections(std::move(listener), connections));
  std::vector<rt::net::TcpStream> clients;
  for (long i = 0; i < connections; ++i) {
    rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
    client.set_nodelay(true);
    clients.push_back(std::move(client));
  }
  co_await accepting;
  co_return clients;
}

inline rt::Task<> round_trips(rt::net::TcpStream& client, long count) {
  std::array<char, echo_message_bytes> message{};
  std::array<char, echo_message_bytes> reply{};
  for (long i = 0; i < count; ++i) {
    message[0] = static_cast<char>(i);
    co_await client.write_all(std::string_view(message.data(), message.size()));
    co_await client.read_exact(reply);
    if (reply != message) throw std::logic_error("echo sent back other bytes");
  }
}

inline rt::Task<> run_clients(std::vector<rt::net::TcpStream>& clients, long round_trips_each) {
  std::vector<rt::JoinHandle<void>> handles;
  handles.reserve(clients.size());
  for (rt::net::TcpStream& client : clients) handles.push_back(rt::spawn(round_trips(client, round_trips_each)));
  co_await join_all(handles);
}

class Echo : public Workload {
 public:
  Echo(std::string_view workload, Flavour flavour, int workers, Size size)
      : round_trips_each_(echo_round_trips_per_connection(workload, size)),
        runtime_(make_io_runtime(flavour, workers)),
        clients_(runtime_->block_on(open_connections(echo_connections(workload)))) {}
  void iteration() override { runtime_->block_on(run_clients(clients_, round_trips_each_)); }

 private:
  long round_trips_each_;
  std::unique_ptr<rt::Runtime> runtime_;
  // Declared after runtime_, so closed before it shuts down: each server
  // task reads the end of its stream, and the runtime cancels what is left.
  std::vector<rt::net::TcpStream> clients_;
};

#endif

}  // namespace bench::course
