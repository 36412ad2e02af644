// A connection's loop on the course's runtime; see connection.hpp.
#include "capstone/connection.hpp"

#include <sys/socket.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <system_error>

#include "capstone/session.hpp"

namespace redis {

Instant now() { return std::chrono::floor<Millis>(rt::time::Instant::now().time_point()); }

namespace {

// Reads what the socket holds now into the session and runs it, shutting
// down. The socket itself is asked, not the runtime (whose try_read trusts
// the readiness the driver has seen, which may not include the bytes that
// have just arrived): closing a socket with unread bytes resets the
// connection, and the client would lose its replies. A bounded number of
// reads, so that a client that never stops sending cannot keep the
// connection, and its replies, growing.
void read_available(rt::net::TcpStream& stream, Session& session) {
  for (int reads = 0; reads < 16; ++reads) {
    std::span<char> room = session.read_buffer();
    ssize_t n = ::recv(stream.fd(), room.data(), room.size(), MSG_DONTWAIT);
    if (n <= 0) return;  // nothing more now (or an error), or the end
    session.received(static_cast<std::size_t>(n), now());
    if (session.closing()) return;
  }
}

// The loop is one coroutine: every Task's frame is an allocation, so
// nothing in it awaits another Task, only leaves (a read, a write, a
// Notify, the token).
rt::Task<> serve(rt::net::TcpStream& stream, Session& session, rt::Notify& mail, rt::CancellationToken& stop) {
  // The connection's one wait on its token, made once and polled again
  // each turn, rather than a new one per request.
  auto stopped = stop.cancelled();
  for (;;) {
    // The read first: a busy client is served, and a cancel is seen the
    // next time it has nothing more to send. A read that is not ready
    // has taken nothing, so whichever leaf wins, no byte is lost.
    auto read = stream.read(session.read_buffer());
    bool stopping = false;
    bool has_read = false;
    if (!session.subscribed()) {
      stopping = co_await rt::select(read, stopped) == 1;
      has_read = !stopping;
    } else {
      auto message = mail.notified();
      auto either = rt::select(read, message);
      stopping = co_await rt::select(either, stopped) == 1;
      has_read = !stopping && either.await_resume() == 0;
    }
    bool open = true;
    if (stopping) {
      // Shutting down: answer what has arrived, then close.
      read_available(stream, session);
      open = false;
    } else if (has_read) {
      std::size_t n = read.await_resume();
      if (n == 0) open = false;  // the client closed
      if (open) session.received(n, now());
    } else {
      session.take_messages();
    }
    // Every reply to this read, in one write (or as few as the socket takes).
    for (std::string_view out = session.output(); !out.empty();) out.remove_prefix(co_await stream.write(out));
    session.written();
    if (!open || session.closing()) co_return;
  }
}

}  // namespace

rt::Task<> serve_connection(rt::net::TcpStream stream, std::shared_ptr<ServerState> state, rt::CancellationToken stop) {
  try {
    stream.set_nodelay(true);  // a reply goes out now, not after the client's next packet
    // Declared before the session, whose subscriber wakes it: it must
    // outlive every publisher that can still reach the subscriber.
    rt::Notify mail;
    Session session(state->shared, [&mail] { mail.notify_one(); });
    co_await serve(stream, session, mail, stop);
  } catch (const std::system_error&) {
    // ECONNRESET, EPIPE: the client went away; the server goes on.
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rt-redis: a connection failed: %s\n", error.what());
  }
}

}  // namespace redis
