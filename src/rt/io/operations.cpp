//@ file reactor..
// The socket leaves' polls, compiled once per runtime; see operations.hpp.
#include "rt/io/operations.hpp"

#include <sys/socket.h>

namespace rt::io {

namespace {

ssize_t receive(int fd, void* state) {
  auto* buffer = static_cast<std::span<char>*>(state);
  return ::recv(fd, buffer->data(), buffer->size(), 0);
}

ssize_t send(int fd, void* state) {
  auto* data = static_cast<std::string_view*>(state);
  return ::send(fd, data->data(), data->size(), MSG_NOSIGNAL);
}

}  // namespace

rt::detail::IoCall receive_call(std::span<char>& buffer) { return {&receive, &buffer}; }
rt::detail::IoCall send_call(std::string_view& data) { return {&send, &data}; }

namespace {

// One operation's poll: ready with a byte count or an error kept for
// await_resume, or pending.
bool poll_bytes(rt::detail::Registration& io, Context& cx, Direction direction,
                rt::detail::IoCall call, std::size_t& done, std::exception_ptr& error) {
  try {
    std::optional<ssize_t> result = io.poll_io(cx, direction, call);
    if (!result) return false;
    done = static_cast<std::size_t>(*result);
  } catch (...) {
    error = std::current_exception();
  }
  return true;
}

std::size_t bytes_or_rethrow(std::size_t done, const std::exception_ptr& error) {
  if (error) std::rethrow_exception(error);
  return done;
}

}  // namespace

bool Read::poll(Context& cx) { return poll_bytes(*io_, cx, Direction::read, receive_call(buffer_), done_, error_); }
std::size_t Read::await_resume() { return bytes_or_rethrow(done_, error_); }

bool Write::poll(Context& cx) { return poll_bytes(*io_, cx, Direction::write, send_call(data_), done_, error_); }
std::size_t Write::await_resume() { return bytes_or_rethrow(done_, error_); }

bool Readiness::poll(Context& cx) {
  try {
    return io_->poll_ready(cx, direction_);
  } catch (...) {
    error_ = std::current_exception();
    return true;
  }
}

void Readiness::await_resume() {
  if (error_) std::rethrow_exception(error_);
}

}  // namespace rt::io
