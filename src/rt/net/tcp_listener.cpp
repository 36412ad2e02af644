//@ file reactor..
// TcpListener's operations, compiled once per runtime; see tcp_listener.hpp.
#include "rt/net/tcp_listener.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "rt/runtime/driver.hpp"
#include "rt/util/system_error.hpp"

namespace rt::net {

using detail::throw_last_os_error;

namespace {

struct AcceptState {
  sockaddr_storage peer{};
  socklen_t length = sizeof peer;
};

ssize_t accept_one(int fd, void* state) {
  auto* accepted = static_cast<AcceptState*>(state);
  accepted->length = sizeof accepted->peer;
  return ::accept4(fd, reinterpret_cast<sockaddr*>(&accepted->peer), &accepted->length,
                   SOCK_NONBLOCK | SOCK_CLOEXEC);
}

}  // namespace

TcpListener TcpListener::bind(const SocketAddr& address) {
  // The driver is looked up first, so that without a runtime with I/O
  // nothing is created.
  rt::detail::current_io_driver();
  int fd = ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_last_os_error("socket");
  int yes = 1;
  // A restarted server can bind its port again at once (as Tokio's does).
  if (::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) < 0 ||
      ::bind(fd, address.raw(), address.length()) < 0 || ::listen(fd, 1024) < 0) {
    int error = errno;
    ::close(fd);
    throw std::system_error(error, std::system_category(), "bind");
  }
  // Registered once listening: epoll reports a socket that is neither
  // listening nor connected as hung up, and closed bits never clear.
  return TcpListener(std::make_unique<rt::detail::Registration>(fd));
}

bool TcpListener::Accept::poll(Context& cx) {
  try {
    AcceptState state;
    std::optional<ssize_t> fd = io_->poll_io(cx, io::Direction::read, {&accept_one, &state});
    if (!fd) return false;
    fd_ = static_cast<int>(*fd);
    peer_ = SocketAddr::from_raw(reinterpret_cast<sockaddr*>(&state.peer), state.length);
  } catch (...) {
    error_ = std::current_exception();
  }
  return true;
}

TcpListener::Accept::~Accept() {
  //@ mutant reactor accept_drop_leaks: an accept dropped after it took a connection leaves its descriptor open
  if (fd_ >= 0) ::close(fd_);
  //@ instead
  //@ end
}

std::pair<TcpStream, SocketAddr> TcpListener::Accept::await_resume() {
  if (error_) std::rethrow_exception(error_);
  return {TcpStream::from_fd(std::exchange(fd_, -1)), peer_};
}

SocketAddr TcpListener::local_addr() const {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (::getsockname(io_->fd(), reinterpret_cast<sockaddr*>(&storage), &length) < 0) throw_last_os_error("getsockname");
  return SocketAddr::from_raw(reinterpret_cast<sockaddr*>(&storage), length);
}

}  // namespace rt::net
