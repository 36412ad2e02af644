//@ file blocking..
// Looking up host names, compiled once per runtime; see lookup_host.hpp.
#include "rt/net/lookup_host.hpp"

#include <netdb.h>
#include <sys/socket.h>

#include <exception>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "rt/blocking/spawn_blocking.hpp"
#include "rt/net/tcp_listener.hpp"
#include "rt/net/tcp_stream.hpp"

namespace rt::net {

namespace {

struct HostAndPort {
  std::string host;
  std::string port;
};

// "host:port" or "[v6]:port", split; the port must be a number.
HostAndPort split(const std::string& text) {
  std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size() ||
      text.find_first_not_of("0123456789", colon + 1) != std::string::npos) {
    throw std::invalid_argument("lookup_host: \"" + text + "\" is not host:port");
  }
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {host, text.substr(colon + 1)};
}

struct Resolved {
  std::vector<SocketAddr> addresses;  // empty when error is set
  int error = 0;                      // getaddrinfo's
};

// getaddrinfo for TCP; with AI_NUMERICHOST in `flags` it never blocks.
Resolved resolve(const HostAndPort& name, int flags) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  Resolved resolved;
  resolved.error = ::getaddrinfo(name.host.c_str(), name.port.c_str(), &hints, &found);
  if (resolved.error != 0) return resolved;
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, &::freeaddrinfo);
  for (addrinfo* entry = found; entry; entry = entry->ai_next) {
    resolved.addresses.push_back(SocketAddr::from_raw(entry->ai_addr, entry->ai_addrlen));
  }
  return resolved;
}

}  // namespace

Task<std::vector<SocketAddr>> lookup_host(std::string host_and_port) {
  HostAndPort name = split(host_and_port);
  Resolved numeric = resolve(name, AI_NUMERICHOST);
  if (numeric.error == 0) co_return std::move(numeric.addresses);  // no lookup, no thread
  // The job owns what it reads: a task dropped meanwhile leaves it
  // nothing dangling. (Spawned in a statement of its own: g++ 12 copies a
  // temporary that lives across a co_await byte by byte, which breaks the
  // std::strings in a closure.)
  rt::JoinHandle<Resolved> job = rt::spawn_blocking([name] { return resolve(name, 0); });
  Resolved looked_up = co_await job;
  if (looked_up.error != 0) {
    throw LookupError("lookup_host: no address for \"" + name.host + "\": " + ::gai_strerror(looked_up.error));
  }
  co_return std::move(looked_up.addresses);
}

// Connecting and binding to looked-up addresses live here, beside the
// lookup they need (the rest of TcpStream and TcpListener is in
// tcp_stream.cpp and tcp_listener.cpp): each address in turn.
Task<TcpStream> TcpStream::connect(std::string host_and_port) {
  std::vector<SocketAddr> addresses = co_await lookup_host(std::move(host_and_port));
  std::exception_ptr last;
  for (const SocketAddr& address : addresses) {
    try {
      co_return co_await connect(address);
    } catch (const std::system_error&) {
      last = std::current_exception();  // "localhost" is often ::1 first, then 127.0.0.1
    }
  }
  std::rethrow_exception(last);  // lookup_host returns at least one address
}

TcpListener TcpListener::bind(const std::vector<SocketAddr>& addresses) {
  if (addresses.empty()) throw std::invalid_argument("bind: no address to bind");
  for (std::size_t i = 0;; ++i) {
    try {
      return bind(addresses[i]);
    } catch (const std::system_error&) {
      if (i + 1 == addresses.size()) throw;  // the last one's error
    }
  }
}

}  // namespace rt::net
