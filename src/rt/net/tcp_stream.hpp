//@ file reactor..
// TcpStream: a TCP connection whose reads and writes suspend the task, not
// the thread. Mirrors tokio::net::TcpStream (net/tcp/stream.rs) and its
// owned halves (net/tcp/split_owned.rs).
//
//   rt::net::TcpStream stream = co_await rt::net::TcpStream::connect(address);
//   co_await stream.write_all("ping");
//   char buffer[64];
//   std::size_t n = co_await stream.read(buffer);   // 0: end of stream
//
// Errors are std::system_error carrying the errno (ECONNREFUSED,
// ECONNRESET, EPIPE: a write to a closed peer never raises SIGPIPE). The
// try_ operations never wait: nothing means "would block".
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
//@ chapters blocking..
#include <string>
//@ end
#include <string_view>
#include <utility>

#include "rt/io/operations.hpp"
#include "rt/io/registration.hpp"
#include "rt/net/socket_addr.hpp"
#include "rt/task/task.hpp"

namespace rt::net {

// read_exact met the end of the stream first.
class UnexpectedEof : public std::runtime_error {
 public:
  UnexpectedEof() : std::runtime_error("early end of stream: the peer closed before sending enough") {}
};

class OwnedReadHalf;
class OwnedWriteHalf;

class TcpStream {
 public:
  // Connects to `address`; throws std::system_error (ECONNREFUSED, ...).
  static Task<TcpStream> connect(SocketAddr address);
//@ chapters blocking..
  // Connects to "host:port" (rt/net/lookup_host.hpp), trying each address
  // in turn; throws the last one's error.
  static Task<TcpStream> connect(std::string host_and_port);
  static Task<TcpStream> connect(const char* host_and_port) { return connect(std::string(host_and_port)); }
  static Task<TcpStream> connect(std::string_view host_and_port) { return connect(std::string(host_and_port)); }
//@ end
  // Takes over a connected socket (made non-blocking here).
  static TcpStream from_fd(int fd);

  // Up to buffer.size() bytes; 0 at end of stream.
  io::Read read(std::span<char> buffer) { return {*io_, buffer}; }
  // Exactly buffer.size() bytes; throws UnexpectedEof if the stream ends first.
  Task<> read_exact(std::span<char> buffer);
  // Some of `data`; how much was sent.
  io::Write write(std::string_view data) { return {*io_, data}; }
  // All of `data`.
  Task<> write_all(std::string_view data);

  io::Readiness readable() { return {*io_, io::Direction::read}; }
  io::Readiness writable() { return {*io_, io::Direction::write}; }
  std::optional<std::size_t> try_read(std::span<char> buffer);
  std::optional<std::size_t> try_write(std::string_view data);

  // Closes the writing side: the peer reads the end of the stream.
  void shutdown();
  void set_nodelay(bool nodelay);
  bool nodelay() const;
  SocketAddr peer_addr() const;
  SocketAddr local_addr() const;

  // A reader and a writer, for two tasks: the stream closes when both go.
  std::pair<OwnedReadHalf, OwnedWriteHalf> into_split() &&;

  int fd() const { return io_->fd(); }

 private:
  friend class OwnedReadHalf;
  friend class OwnedWriteHalf;
  explicit TcpStream(std::shared_ptr<rt::detail::Registration> io) : io_(std::move(io)) {}

  std::shared_ptr<rt::detail::Registration> io_;
};

// The reading half of a split stream.
class OwnedReadHalf {
 public:
  io::Read read(std::span<char> buffer) { return stream_.read(buffer); }
  Task<> read_exact(std::span<char> buffer) { return stream_.read_exact(buffer); }
  io::Readiness readable() { return stream_.readable(); }
  std::optional<std::size_t> try_read(std::span<char> buffer) { return stream_.try_read(buffer); }
  SocketAddr peer_addr() const { return stream_.peer_addr(); }

 private:
  friend class TcpStream;
  explicit OwnedReadHalf(std::shared_ptr<rt::detail::Registration> io) : stream_(std::move(io)) {}
  TcpStream stream_;
};

// The writing half of a split stream; destroying it shuts the writing
// side down, as Tokio's does.
class OwnedWriteHalf {
 public:
  OwnedWriteHalf(OwnedWriteHalf&&) noexcept = default;
  OwnedWriteHalf& operator=(OwnedWriteHalf&&) = delete;
  ~OwnedWriteHalf();

  io::Write write(std::string_view data) { return stream_.write(data); }
  Task<> write_all(std::string_view data) { return stream_.write_all(data); }
  io::Readiness writable() { return stream_.writable(); }
  std::optional<std::size_t> try_write(std::string_view data) { return stream_.try_write(data); }
  void shutdown() { stream_.shutdown(); }
  SocketAddr peer_addr() const { return stream_.peer_addr(); }

 private:
  friend class TcpStream;
  explicit OwnedWriteHalf(std::shared_ptr<rt::detail::Registration> io) : stream_(std::move(io)) {}
  TcpStream stream_;
};

}  // namespace rt::net
