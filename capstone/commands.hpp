// The commands: one request in, its reply out, in Redis's own words.
// Mirrors mini-redis's cmd/ (a Command parsed from a frame, then applied to
// the Db), with the rules and error messages of Redis 7's t_string.c,
// expire.c, pubsub.c and server.c.
//
//   redis::Shared shared;                        // the server's keyspace and channels
//   redis::Client client(shared, wake);          // one connection's side
//   redis::execute(client, args, now, out);      // out += the reply
//
// The commands: PING [message], ECHO, GET, SET key value [NX|XX] [GET]
// [EX s|PX ms|EXAT unix-s|PXAT unix-ms|KEEPTTL], DEL key..., EXISTS key...,
// INCR, DECR, INCRBY, DECRBY, EXPIRE and PEXPIRE key time [NX|XX|GT|LT],
// TTL, PTTL, DBSIZE, PUBLISH, SUBSCRIBE channel..., UNSUBSCRIBE
// [channel...], QUIT, and COMMAND and CONFIG GET, answered as much as
// redis-cli and redis-benchmark ask of them. Anything else is Redis's
// "unknown command" error; the connection goes on.
//
// In subscribe mode (a client with a channel) every reply goes to the
// client's mailbox, in order with its messages (pubsub.hpp).
//
// Plain C++, like the keyspace it works on.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "capstone/db.hpp"
#include "capstone/pubsub.hpp"

namespace redis {

// What every connection of one server shares.
struct Shared {
  explicit Shared(std::size_t shards = Db::default_shards) : db(shards) {}

  Db db;
  PubSub pubsub;
};

// One connection's side of the commands.
class Client {
 public:
  // `wake` wakes the connection when a message waits for it.
  Client(Shared& shared, std::function<void()> wake) : shared(shared), subscriber(std::move(wake)) {}
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  ~Client() { shared.pubsub.forget(subscriber); }

  bool subscribed() const { return subscriber.channels() > 0; }

  Shared& shared;
  Subscriber subscriber;
  bool quit = false;            // QUIT: close once the replies are out
  bool posted = false;          // the mailbox holds replies to take before the next
  std::string reply;            // a subscribed client's reply, before it is posted
};

// Runs one request (`args` is not empty) at `now`, appending its reply to
// `out`, or, in subscribe mode, to the mailbox (the caller takes the
// mailbox into `out` before writing).
void execute(Client& client, std::span<const std::string_view> args, Instant now, std::string& out);

}  // namespace redis
