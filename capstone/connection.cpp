// A connection's loop on the course's runtime; see connection.hpp.
#include "capstone/connection.hpp"

#include <cstdio>
#include <exception>
#include <optional>
#include <system_error>

#include "capstone/session.hpp"

namespace redis {

Instant now() { return std::chrono::floor<Millis>(rt::time::Instant::now().time_point()); }

namespace {

// What woke the connection.
enum class Event { readable, mail, stop };

// Reads what the socket holds now into the session and runs it; false
// at the end of the stream.
bool read_available(rt::net::TcpStream& stream, Session& session) {
  for (;;) {
    std::optional<std::size_t> n = stream.try_read(session.read_buffer());
    if (!n) return true;  // would block: all read
    if (*n == 0) return false;
    session.received(*n, now());
    if (session.closing()) return true;
  }
}

// The loop is one coroutine: every Task's frame is an allocation, so
// nothing in it awaits another Task, only leaves (readiness, a write).
rt::Task<> serve(rt::net::TcpStream& stream, Session& session, rt::Notify& mail, rt::CancellationToken& stop) {
  // The connection's one wait on its token, made once and polled again
  // each turn, rather than a new one per request.
  auto stopped = stop.cancelled();
  for (;;) {
    Event event;
    auto readable = stream.readable();
    if (!session.subscribed()) {
      // The socket first: a busy client is served, and a cancel is seen
      // the next time it has nothing more to send.
      event = co_await rt::select(readable, stopped) == 0 ? Event::readable : Event::stop;
    } else {
      auto message = mail.notified();
      auto either = rt::select(readable, message);
      if (co_await rt::select(either, stopped) == 1) {
        event = Event::stop;
      } else {
        event = either.await_resume() == 0 ? Event::readable : Event::mail;
      }
    }
    bool open = true;
    if (event == Event::stop) {
      // Shutting down: answer what has arrived, then close.
      read_available(stream, session);
      open = false;
    } else if (event == Event::readable) {
      std::optional<std::size_t> n = stream.try_read(session.read_buffer());
      if (!n) continue;  // the readiness was stale: wait again
      if (*n == 0) open = false;
      if (open) session.received(*n, now());
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
