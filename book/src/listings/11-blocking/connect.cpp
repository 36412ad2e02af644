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
