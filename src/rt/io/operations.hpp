//@ file reactor..
// The leaves a task awaits on a registered socket: read, write, and
// readiness. Mirrors Tokio's poll_read / poll_write (io/poll_evented.rs)
// and readable() / writable() (net/tcp/stream.rs), as leaf futures.
//
// Each is a runtime resource (it spends the task's cooperative budget when
// ready, chapter 08), and none throws from poll: an error is kept, and
// rethrown by co_await, so that the awaiting coroutine can catch it.
#pragma once

#include <cstddef>
#include <exception>
#include <span>
#include <string_view>

#include "rt/io/registration.hpp"
#include "rt/task/poll.hpp"

namespace rt::io {

// The two system calls of a stream, as IoCalls on the caller's buffer:
// recv, and send with MSG_NOSIGNAL (a peer that is gone is an EPIPE error,
// not a SIGPIPE that kills the process).
rt::detail::IoCall receive_call(std::span<char>& buffer);
rt::detail::IoCall send_call(std::string_view& data);

// `co_await read`: up to buffer.size() bytes; 0 at end of stream.
class Read : public Leaf<Read> {
 public:
  Read(rt::detail::Registration& io, std::span<char> buffer) : io_(&io), buffer_(buffer) {}
  bool poll(Context& cx) override;
  bool cooperative() const override { return true; }
  std::size_t await_resume();

 private:
  rt::detail::Registration* io_;
  std::span<char> buffer_;
  std::size_t done_ = 0;
  std::exception_ptr error_;
};

// `co_await write`: some of `data` (at least one byte), sent.
class Write : public Leaf<Write> {
 public:
  Write(rt::detail::Registration& io, std::string_view data) : io_(&io), data_(data) {}
  bool poll(Context& cx) override;
  bool cooperative() const override { return true; }
  std::size_t await_resume();

 private:
  rt::detail::Registration* io_;
  std::string_view data_;
  std::size_t done_ = 0;
  std::exception_ptr error_;
};

// `co_await readiness`: the socket looks ready in one direction (a system
// call may still find it is not: then try_read or try_write says so).
class Readiness : public Leaf<Readiness> {
 public:
  Readiness(rt::detail::Registration& io, Direction direction) : io_(&io), direction_(direction) {}
  bool poll(Context& cx) override;
  bool cooperative() const override { return true; }
  void await_resume();

 private:
  rt::detail::Registration* io_;
  Direction direction_;
  std::exception_ptr error_;
};

}  // namespace rt::io
