//@ file reactor..
// Parsing and printing socket addresses, compiled once per runtime; see
// socket_addr.hpp.
#include "rt/net/socket_addr.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <stdexcept>

namespace rt::net {

namespace {

[[noreturn]] void invalid(std::string_view text) {
  throw std::invalid_argument("not a numeric socket address (\"1.2.3.4:80\" or \"[::1]:80\"): \"" +
                              std::string(text) + "\"");
}

std::uint16_t parse_port(std::string_view text, std::string_view whole) {
  unsigned port = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || port > 65535) invalid(whole);
  return static_cast<std::uint16_t>(port);
}

}  // namespace

SocketAddr::SocketAddr(std::string_view text) {
  std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) invalid(text);
  std::uint16_t port = parse_port(text.substr(colon + 1), text);
  std::string_view host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    std::string ip(host.substr(1, host.size() - 2));
    sockaddr_in6 v6{};
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    if (::inet_pton(AF_INET6, ip.c_str(), &v6.sin6_addr) != 1) invalid(text);
    std::memcpy(&storage_, &v6, sizeof v6);
    length_ = sizeof v6;
    return;
  }
  std::string ip(host);
  sockaddr_in v4{};
  v4.sin_family = AF_INET;
  v4.sin_port = htons(port);
  if (::inet_pton(AF_INET, ip.c_str(), &v4.sin_addr) != 1) invalid(text);
  std::memcpy(&storage_, &v4, sizeof v4);
  length_ = sizeof v4;
}

SocketAddr SocketAddr::from_raw(const sockaddr* address, socklen_t length) {
  SocketAddr result;
  if (length > sizeof result.storage_) length = sizeof result.storage_;
  std::memcpy(&result.storage_, address, length);
  result.length_ = length;
  return result;
}

std::uint16_t SocketAddr::port() const {
  if (is_ipv6()) return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage_)->sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage_)->sin_port);
}

std::string SocketAddr::ip() const {
  char text[INET6_ADDRSTRLEN] = {};
  if (is_ipv6()) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage_)->sin6_addr, text, sizeof text);
  } else {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage_)->sin_addr, text, sizeof text);
  }
  return text;
}

std::string SocketAddr::to_string() const {
  if (is_ipv6()) return "[" + ip() + "]:" + std::to_string(port());
  return ip() + ":" + std::to_string(port());
}

}  // namespace rt::net
