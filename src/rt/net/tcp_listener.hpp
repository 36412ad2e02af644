//@ file reactor..
// TcpListener: a socket that accepts TCP connections without blocking its
// thread. Mirrors tokio::net::TcpListener (net/tcp/listener.rs).
//
//   rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
//   for (;;) {
//     auto [stream, peer] = co_await listener.accept();
//     rt::spawn(serve(std::move(stream)));
//   }
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <utility>
//@ chapters blocking..
#include <vector>
//@ end

#include "rt/io/registration.hpp"
#include "rt/net/socket_addr.hpp"
#include "rt/net/tcp_stream.hpp"
#include "rt/task/poll.hpp"

namespace rt::net {

class TcpListener {
 public:
  // Binds and listens (port 0: the system picks one, local_addr() says
  // which); throws std::system_error (EADDRINUSE, ...).
  static TcpListener bind(const SocketAddr& address);
//@ chapters blocking..
  // The first of `addresses` that binds, for a host name looked up first:
  //   TcpListener::bind(co_await rt::net::lookup_host("localhost:0"))
  // (Tokio's bind is async and looks up itself; this one stays as
  // chapter 09 made it, and leaves the waiting to lookup_host.)
  static TcpListener bind(const std::vector<SocketAddr>& addresses);
//@ end

  // `co_await accept()`: the next connection, and who it comes from.
  class Accept : public Leaf<Accept> {
   public:
    explicit Accept(rt::detail::Registration& io) : io_(&io) {}
    Accept(const Accept&) = delete;
    Accept& operator=(const Accept&) = delete;
    ~Accept();  // closes a connection accepted but never taken
    bool poll(Context& cx) override;
    bool cooperative() const override { return true; }
    std::pair<TcpStream, SocketAddr> await_resume();

   private:
    rt::detail::Registration* io_;
    int fd_ = -1;
    SocketAddr peer_;
    std::exception_ptr error_;
  };
  Accept accept() { return Accept(*io_); }

  SocketAddr local_addr() const;

 private:
  explicit TcpListener(std::unique_ptr<rt::detail::Registration> io) : io_(std::move(io)) {}
  std::unique_ptr<rt::detail::Registration> io_;
};

}  // namespace rt::net
