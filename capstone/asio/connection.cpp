// A connection's loop on Asio; see connection.hpp.
#include "capstone/asio/connection.hpp"

#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <chrono>
#include <tuple>

namespace redis::asio_side {

namespace {

using asio::use_awaitable;
using asio::experimental::as_tuple;

}  // namespace

Instant now() { return std::chrono::floor<Millis>(std::chrono::steady_clock::now()); }

Connection::Connection(asio::ip::tcp::socket socket, Shared& shared)
    : socket_(std::move(socket)),
      mail_(socket_.get_executor(), asio::steady_timer::time_point::max()),
      session_(shared, [this] { wake(); }) {
  socket_.set_option(asio::ip::tcp::no_delay(true));  // a reply goes out now
  socket_.non_blocking(true);  // for the reads that must not wait (Asio's own waits are unaffected)
}

asio::mutable_buffer Connection::room() {
  std::span<char> room = session_.read_buffer();
  return {room.data(), room.size()};
}

void Connection::wake() {
  // From a publisher's thread: the socket and the timer belong to the
  // strand. The connection may be gone by the time this runs.
  asio::post(socket_.get_executor(), [weak = weak_from_this()] {
    if (auto self = weak.lock()) self->mail_.cancel();
  });
}

void Connection::stop() {
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->stopping_ = true;
    // Only a wait on the client is cancelled: a write in progress finishes.
    if (self->waiting_) {
      asio::error_code ignored;
      self->socket_.cancel(ignored);
      self->mail_.cancel();
    }
  });
}

void Connection::read_available() {
  for (int reads = 0; reads < 16; ++reads) {  // bounded: a client may never stop sending
    asio::error_code error;
    std::size_t n = socket_.read_some(room(), error);
    if (error || n == 0) return;  // would block, or the end
    session_.received(n, now());
    if (session_.closing()) return;
  }
}

asio::awaitable<bool> Connection::wait_subscribed() {
  using namespace asio::experimental::awaitable_operators;
  // The socket's readiness, not a read: `||` drops the loser's result,
  // and a read's would be bytes.
  co_await (socket_.async_wait(asio::ip::tcp::socket::wait_read, as_tuple(use_awaitable)) ||
            mail_.async_wait(as_tuple(use_awaitable)));
  co_return !stopping_;
}

asio::awaitable<void> Connection::run() {
  for (;;) {
    bool open = true;
    if (stopping_) {
      // Shutting down: answer what has arrived, then close.
      read_available();
      open = false;
    } else if (session_.subscribed()) {
      // The mailbox is looked at with no wait between this look and the
      // wait below: a wake-up posted after it runs once the wait began,
      // and cancels it.
      if (!session_.take_messages()) {
        waiting_ = true;
        bool go_on = co_await wait_subscribed();
        waiting_ = false;
        if (!go_on) continue;
        asio::error_code error;
        std::size_t n = socket_.read_some(room(), error);
        if (error == asio::error::would_block) continue;  // woken by the mailbox
        if (error || n == 0) co_return;
        session_.received(n, now());
      }
    } else {
      waiting_ = true;
      auto [error, n] = co_await socket_.async_read_some(room(), as_tuple(use_awaitable));
      waiting_ = false;
      if (!error && n > 0) {
        session_.received(n, now());  // even if stop() came meanwhile: these bytes were read
      } else if (!stopping_) {
        co_return;  // the end of the stream, or a reset
      }
    }
    if (!session_.output().empty()) {
      auto [error, written] = co_await asio::async_write(socket_, asio::buffer(session_.output()), as_tuple(use_awaitable));
      if (error) co_return;
      session_.written();
    }
    if (!open || session_.closing()) co_return;
  }
}

}  // namespace redis::asio_side
