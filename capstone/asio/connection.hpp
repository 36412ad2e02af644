// One client's connection on Asio: the same Session (capstone/session.hpp)
// as the course's server, driven the way a C++ user would write it with
// Asio's C++20 coroutines today: async_read_some, async_write, and in
// subscribe mode `read || mail` (Asio's experimental awaitable operators).
//
// Each connection runs on its own strand, because the io_context runs on
// several threads and an Asio socket is not safe to touch from two at
// once: the server's stop() and a publisher's wake-up reach it by posting
// to that strand.
#pragma once

#include <asio.hpp>
#include <memory>

#include "capstone/session.hpp"

namespace redis::asio_side {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `socket` is bound to the connection's strand.
  Connection(asio::ip::tcp::socket socket, Shared& shared);

  // The connection's coroutine: until the client goes, QUIT, a protocol
  // error, or stop() (then what has arrived is answered first).
  asio::awaitable<void> run();
  // From any thread: the server is stopping. A connection waiting for its
  // client stops now; one busy answering stops once its replies are out.
  void stop();
  // The connection's strand.
  asio::ip::tcp::socket::executor_type executor() { return socket_.get_executor(); }

 private:
  // The steps of run(), on the strand.
  asio::awaitable<bool> wait_subscribed();  // false: stop
  void read_available();                    // what has arrived, before closing
  void wake();                              // a message waits in the mailbox
  asio::mutable_buffer room();              // the session's read buffer

  asio::ip::tcp::socket socket_;
  asio::steady_timer mail_;  // never expires: a wake-up cancels the wait on it
  Session session_;
  bool waiting_ = false;     // on the client: stop() may cancel the wait
  bool stopping_ = false;
};

// The clock the keyspace runs on, in its milliseconds.
Instant now();

}  // namespace redis::asio_side
