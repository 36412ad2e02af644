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

bool Read::poll(Context& cx) {
  try {
    std::optional<ssize_t> done = io_->poll_io(cx, Direction::read, receive_call(buffer_));
    if (!done) return false;
    done_ = static_cast<std::size_t>(*done);
  } catch (...) {
    error_ = std::current_exception();
  }
  return true;
}

std::size_t Read::await_resume() {
  if (error_) std::rethrow_exception(error_);
  return done_;
}

bool Write::poll(Context& cx) {
  try {
    std::optional<ssize_t> done = io_->poll_io(cx, Direction::write, send_call(data_));
    if (!done) return false;
    done_ = static_cast<std::size_t>(*done);
  } catch (...) {
    error_ = std::current_exception();
  }
  return true;
}

std::size_t Write::await_resume() {
  if (error_) std::rethrow_exception(error_);
  return done_;
}

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
