// One client's connection, on the course's runtime: wait until the socket
// is readable, read what is there, answer every complete request in one
// write, and again. Mirrors mini-redis's server.rs Handler::run and
// connection.rs, with the protocol itself in a Session (session.hpp).
//
//   connections.spawn(redis::serve_connection(std::move(stream), state, token.child_token()));
//
// A connection ends when the client closes it (or resets it), after QUIT
// or a protocol error (once the replies are out, as Redis does), when its
// subscriber mailbox overflows, or when `stop` is cancelled: then it reads
// what has already arrived, answers every complete request in it, and
// closes. What it waits on at each turn: the socket and `stop`, and in
// subscribe mode also the mailbox's Notify.
#pragma once

#include <memory>

#include "capstone/commands.hpp"
#include "rt/rt.hpp"

namespace redis {

// What a server's tasks share: the keyspace and channels, and the Notify
// that wakes the purge task when a key is given a sooner expiry.
struct ServerState {
  explicit ServerState(std::size_t shards) : shared(shards) {
    shared.db.on_sooner_expiry([this] { purge.notify_one(); });
  }
  ServerState(const ServerState&) = delete;
  ServerState& operator=(const ServerState&) = delete;

  Shared shared;
  rt::Notify purge;
};

// The runtime's clock, in the keyspace's milliseconds.
Instant now();

// Serves one client until it goes, or until `stop` is cancelled and what it
// had sent is answered. Never throws: a connection's errors end it alone.
rt::Task<> serve_connection(rt::net::TcpStream stream, std::shared_ptr<ServerState> state, rt::CancellationToken stop);

}  // namespace redis
