Task<TcpStream> TcpStream::connect(SocketAddr address) {
  int fd = ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket");
  // Registered first (this throws without a runtime with I/O), so that
  // the connection's completion is an event the driver reports.
  auto io = std::make_shared<rt::detail::Registration>(fd);
  if (::connect(fd, address.raw(), address.length()) < 0 && errno != EINPROGRESS) fail("connect");
  // Connected, or refused: either way the socket becomes writable.
  co_await io::Readiness(*io, io::Direction::write);
  int error = 0;
  socklen_t length = sizeof error;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) < 0) fail("getsockopt");
  if (error != 0) throw std::system_error(error, std::system_category(), "connect");
  co_return TcpStream(std::move(io));
}
