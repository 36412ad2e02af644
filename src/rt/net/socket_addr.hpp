//@ file reactor..
// SocketAddr: an IPv4 or IPv6 address and a port. Mirrors Rust's
// std::net::SocketAddr, as Tokio's net types take and return it.
//
//   rt::net::SocketAddr a("127.0.0.1:8080");
//   rt::net::SocketAddr b("[::1]:0");        // port 0: the system picks one
//
// Only numeric addresses: looking up a host name blocks, so it waits for
// chapter 11's blocking pool.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace rt::net {

class SocketAddr {
 public:
  SocketAddr() = default;
  // Parses "a.b.c.d:port" or "[v6]:port"; throws std::invalid_argument.
  SocketAddr(std::string_view text);  // NOLINT: implicit, so bind("127.0.0.1:0") reads well
  SocketAddr(const char* text) : SocketAddr(std::string_view(text)) {}
  static SocketAddr from_raw(const sockaddr* address, socklen_t length);

  std::uint16_t port() const;
  std::string ip() const;
  std::string to_string() const;  // "127.0.0.1:8080", "[::1]:8080"
  bool is_ipv6() const { return storage_.ss_family == AF_INET6; }
  int family() const { return storage_.ss_family; }

  const sockaddr* raw() const { return reinterpret_cast<const sockaddr*>(&storage_); }
  socklen_t length() const { return length_; }

  friend bool operator==(const SocketAddr& a, const SocketAddr& b) { return a.to_string() == b.to_string(); }

 private:
  sockaddr_storage storage_{};
  socklen_t length_ = 0;
};

}  // namespace rt::net
