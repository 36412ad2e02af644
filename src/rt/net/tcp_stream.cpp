//@ file reactor..
// TcpStream's operations, compiled once per runtime; see tcp_stream.hpp.
#include "rt/net/tcp_stream.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "rt/runtime/driver.hpp"
#include "rt/util/system_error.hpp"

namespace rt::net {

using detail::throw_last_os_error;

namespace {

SocketAddr name_of(int fd, int (*get)(int, sockaddr*, socklen_t*), const char* what) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (get(fd, reinterpret_cast<sockaddr*>(&storage), &length) < 0) throw_last_os_error(what);
  return SocketAddr::from_raw(reinterpret_cast<sockaddr*>(&storage), length);
}

}  // namespace

//@ listing connect
Task<TcpStream> TcpStream::connect(SocketAddr address) {
  rt::detail::current_io_driver();  // throws without a runtime with I/O, before anything is made
  int fd = ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_last_os_error("socket");
  if (::connect(fd, address.raw(), address.length()) < 0 && errno != EINPROGRESS) {
    int error = errno;
    ::close(fd);
    throw std::system_error(error, std::system_category(), "connect");
  }
  // Registered once connecting: epoll reports a socket that is not
  // connected yet as hung up, and closed bits never clear.
  auto io = std::make_shared<rt::detail::Registration>(fd);
  // Connected, or refused: either way the socket becomes writable.
  co_await io::Readiness(*io, io::Direction::write);
  int error = 0;
  socklen_t length = sizeof error;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) < 0) throw_last_os_error("getsockopt");
  if (error != 0) throw std::system_error(error, std::system_category(), "connect");
  co_return TcpStream(std::move(io));
}
//@ listing-end connect

TcpStream TcpStream::from_fd(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_last_os_error("fcntl");
  return TcpStream(std::make_shared<rt::detail::Registration>(fd));
}

Task<> TcpStream::read_exact(std::span<char> buffer) {
  while (!buffer.empty()) {
    std::size_t n = co_await read(buffer);
    if (n == 0) throw UnexpectedEof();
    buffer = buffer.subspan(n);
  }
}

Task<> TcpStream::write_all(std::string_view data) {
  while (!data.empty()) data.remove_prefix(co_await write(data));
}

std::optional<std::size_t> TcpStream::try_read(std::span<char> buffer) {
  std::optional<ssize_t> done = io_->try_io(io::Direction::read, io::receive_call(buffer));
  if (!done) return std::nullopt;
  return static_cast<std::size_t>(*done);
}

std::optional<std::size_t> TcpStream::try_write(std::string_view data) {
  std::optional<ssize_t> done = io_->try_io(io::Direction::write, io::send_call(data));
  if (!done) return std::nullopt;
  return static_cast<std::size_t>(*done);
}

void TcpStream::shutdown() {
  if (::shutdown(io_->fd(), SHUT_WR) < 0 && errno != ENOTCONN) throw_last_os_error("shutdown");
}

void TcpStream::set_nodelay(bool nodelay) {
  int value = nodelay ? 1 : 0;
  if (::setsockopt(io_->fd(), IPPROTO_TCP, TCP_NODELAY, &value, sizeof value) < 0) throw_last_os_error("setsockopt");
}

bool TcpStream::nodelay() const {
  int value = 0;
  socklen_t length = sizeof value;
  if (::getsockopt(io_->fd(), IPPROTO_TCP, TCP_NODELAY, &value, &length) < 0) throw_last_os_error("getsockopt");
  return value != 0;
}

SocketAddr TcpStream::peer_addr() const { return name_of(io_->fd(), ::getpeername, "getpeername"); }
SocketAddr TcpStream::local_addr() const { return name_of(io_->fd(), ::getsockname, "getsockname"); }

std::pair<OwnedReadHalf, OwnedWriteHalf> TcpStream::into_split() && {
  std::shared_ptr<rt::detail::Registration> io = std::move(io_);
  return {OwnedReadHalf(io), OwnedWriteHalf(io)};
}

OwnedWriteHalf::~OwnedWriteHalf() {
  // Moved from: nothing to shut down.
  if (stream_.io_) ::shutdown(stream_.io_->fd(), SHUT_WR);
}

}  // namespace rt::net
