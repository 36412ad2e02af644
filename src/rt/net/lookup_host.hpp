//@ file blocking..
// rt::net::lookup_host: the addresses of "host:port". Mirrors
// tokio::net::lookup_host (net/addr.rs).
//
//   std::vector<rt::net::SocketAddr> addresses = co_await rt::net::lookup_host("localhost:6379");
//
// A numeric address ("127.0.0.1:80", "[::1]:80") is parsed here and now;
// a host name is looked up with getaddrinfo, which blocks (it may read
// files and ask a DNS server), so it runs on the blocking pool, as in
// Tokio. Throws std::invalid_argument for text that is no "host:port",
// and LookupError when the name has no address.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "rt/net/socket_addr.hpp"
#include "rt/task/task.hpp"

namespace rt::net {

class LookupError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Task<std::vector<SocketAddr>> lookup_host(std::string host_and_port);

}  // namespace rt::net
