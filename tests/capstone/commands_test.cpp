// The commands, through a Session (capstone/session.hpp) as a connection
// drives it: requests in, the bytes of the replies out. The expected
// replies are those a real redis-server 7 sends for the same requests.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <string_view>

#include "capstone/session.hpp"

using namespace std::chrono_literals;
using redis::Instant;

namespace {

// A Session with a clock of its own: time moves only when a test says so.
struct Conversation {
  explicit Conversation(redis::Shared& shared) : session(shared, [this] { ++wakes; }) {}

  // Sends `bytes` (in as many reads as the buffer takes) and returns what
  // the server would write back.
  std::string send(std::string_view bytes) {
    while (!bytes.empty()) {
      std::span<char> room = session.read_buffer();
      std::size_t n = std::min(room.size(), bytes.size());
      std::memcpy(room.data(), bytes.data(), n);
      session.received(n, now);
      bytes.remove_prefix(n);
    }
    return take();
  }
  std::string take() {
    std::string out = session.output();
    session.written();
    return out;
  }

  Instant now{std::chrono::hours(1)};
  int wakes = 0;
  redis::Session session;
};

}  // namespace

TEST_CASE("PING, ECHO, and their wrong numbers of arguments") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("PING\r\n") == "+PONG\r\n");
  CHECK(c.send("ping hi\r\n") == "$2\r\nhi\r\n");
  CHECK(c.send("PING a b\r\n") == "-ERR wrong number of arguments for 'ping' command\r\n");
  CHECK(c.send("*2\r\n$4\r\nECHO\r\n$3\r\na\r\n\r\n") == "$3\r\na\r\n\r\n");
  CHECK(c.send("echo\r\necho a b\r\n") ==
        "-ERR wrong number of arguments for 'echo' command\r\n-ERR wrong number of arguments for 'echo' command\r\n");
}

TEST_CASE("an unknown command is Redis's error, with its arguments, and the session goes on") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("foo a b\r\n") == "-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n");
  CHECK(c.send("foo\r\n") == "-ERR unknown command 'foo', with args beginning with: \r\n");
  std::string long_arg(200, 'x');
  CHECK(c.send("foo " + long_arg + " y\r\n") ==
        "-ERR unknown command 'foo', with args beginning with: '" + std::string(128, 'x') + "' \r\n");
  CHECK_FALSE(c.session.closing());
  CHECK(c.send("PING\r\n") == "+PONG\r\n");
}

TEST_CASE("GET, SET, DEL, EXISTS, DBSIZE") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("GET k\r\n") == "$-1\r\n");
  CHECK(c.send("SET k v\r\nGET k\r\n") == "+OK\r\n$1\r\nv\r\n");
  CHECK(c.send("SET k2 \"\"\r\nGET k2\r\n") == "+OK\r\n$0\r\n\r\n");
  CHECK(c.send("EXISTS k k2 nope k\r\nDBSIZE\r\n") == ":3\r\n:2\r\n");
  CHECK(c.send("DEL k nope k2 k\r\nGET k\r\nDBSIZE\r\n") == ":2\r\n$-1\r\n:0\r\n");
  CHECK(c.send("get\r\n") == "-ERR wrong number of arguments for 'get' command\r\n");
  CHECK(c.send("set k\r\n") == "-ERR wrong number of arguments for 'set' command\r\n");
}

TEST_CASE("SET's options: NX, XX, GET, and the errors Redis gives for them") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("SET k v NX\r\nSET k w NX\r\nGET k\r\n") == "+OK\r\n$-1\r\n$1\r\nv\r\n");
  CHECK(c.send("SET x v XX\r\nGET x\r\nSET k w XX\r\nGET k\r\n") == "$-1\r\n$-1\r\n+OK\r\n$1\r\nw\r\n");
  CHECK(c.send("SET g 1 GET\r\nSET g 2 GET\r\nSET g 3 NX GET\r\nGET g\r\n") == "$-1\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n2\r\n");
  CHECK(c.send("SET k v NX XX\r\n") == "-ERR syntax error\r\n");
  CHECK(c.send("SET k v EX\r\n") == "-ERR syntax error\r\n");
  CHECK(c.send("SET k v EX 1 PX 1\r\n") == "-ERR syntax error\r\n");
  CHECK(c.send("SET k v KEEPTTL EX 5\r\n") == "-ERR syntax error\r\n");
  CHECK(c.send("SET k v FOO\r\n") == "-ERR syntax error\r\n");
  CHECK(c.send("SET k v EX abc\r\n") == "-ERR value is not an integer or out of range\r\n");
  CHECK(c.send("SET k v EX 0\r\n") == "-ERR invalid expire time in 'set' command\r\n");
  CHECK(c.send("SET k v PX -1\r\n") == "-ERR invalid expire time in 'set' command\r\n");
  CHECK(c.send("SET k v EX 9223372036854775807\r\n") == "-ERR invalid expire time in 'set' command\r\n");
  CHECK(c.send("SET k v PX 9223372036854775807\r\n") == "-ERR invalid expire time in 'set' command\r\n");
  CHECK(c.send("GET k\r\n") == "$1\r\nw\r\n");  // no failed SET changed it
}

TEST_CASE("SET EX and PX expire the key once their time has passed, as TTL and PTTL count down") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("SET k v PX 1500\r\nPTTL k\r\nTTL k\r\n") == "+OK\r\n:1500\r\n:2\r\n");
  c.now += 1000ms;
  CHECK(c.send("PTTL k\r\nTTL k\r\n") == ":500\r\n:1\r\n");  // TTL rounds, as Redis's does
  c.now += 500ms;
  CHECK(c.send("PTTL k\r\nGET k\r\n") == ":0\r\n$1\r\nv\r\n");  // at its instant, not yet past it
  c.now += 1ms;
  CHECK(c.send("PTTL k\r\nTTL k\r\nGET k\r\nEXISTS k\r\n") == ":-2\r\n:-2\r\n$-1\r\n:0\r\n");
  CHECK(c.send("SET e v EX 10\r\nTTL e\r\nSET e w\r\nTTL e\r\n") == "+OK\r\n:10\r\n+OK\r\n:-1\r\n");
  CHECK(c.send("SET e v EX 10\r\nSET e w KEEPTTL\r\nTTL e\r\n") == "+OK\r\n+OK\r\n:10\r\n");
  CHECK(c.send("TTL nope\r\nPTTL nope\r\n") == ":-2\r\n:-2\r\n");
}

TEST_CASE("SET EXAT and PXAT take Unix times: one in the past leaves a key already expired") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("SET k v EXAT 1\r\nGET k\r\n") == "+OK\r\n$-1\r\n");
  CHECK(c.send("SET k v PXAT 99999999999999\r\nTTL k\r\n").starts_with("+OK\r\n:"));
}

TEST_CASE("INCR, DECR, INCRBY, DECRBY: integers in range, errors as Redis words them") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("INCR n\r\nINCR n\r\nDECR n\r\nINCRBY n 10\r\nDECRBY n 3\r\nGET n\r\n") ==
        ":1\r\n:2\r\n:1\r\n:11\r\n:8\r\n$1\r\n8\r\n");
  CHECK(c.send("SET n 9223372036854775807\r\nINCR n\r\n") == "+OK\r\n-ERR increment or decrement would overflow\r\n");
  CHECK(c.send("SET n -9223372036854775808\r\nDECR n\r\nINCR n\r\n") ==
        "+OK\r\n-ERR increment or decrement would overflow\r\n:-9223372036854775807\r\n");
  CHECK(c.send("DECRBY n -9223372036854775808\r\n") == "-ERR decrement would overflow\r\n");
  for (const char* value : {"01", "\" 1\"", "-0", "abc", "1.5", "99999999999999999999"}) {
    CAPTURE(value);
    CHECK(c.send(std::string("SET n ") + value + "\r\nINCR n\r\n") ==
          "+OK\r\n-ERR value is not an integer or out of range\r\n");
  }
  CHECK(c.send("INCRBY n x\r\n") == "-ERR value is not an integer or out of range\r\n");
  CHECK(c.send("SET t 5 EX 100\r\nINCR t\r\nTTL t\r\n") == "+OK\r\n:6\r\n:100\r\n");  // INCR keeps the expiry
}

TEST_CASE("EXPIRE and PEXPIRE: a key, a time, and Redis 7's NX, XX, GT, LT") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("EXPIRE a 10\r\nSET a 1\r\nTTL a\r\nEXPIRE a 10\r\nTTL a\r\n") == ":0\r\n+OK\r\n:-1\r\n:1\r\n:10\r\n");
  CHECK(c.send("PEXPIRE a 2500\r\nPTTL a\r\n") == ":1\r\n:2500\r\n");
  CHECK(c.send("EXPIRE a 20 NX\r\nEXPIRE a 20 GT\r\nTTL a\r\nEXPIRE a 5 GT\r\nEXPIRE a 5 LT\r\nTTL a\r\n") ==
        ":0\r\n:1\r\n:20\r\n:0\r\n:1\r\n:5\r\n");
  CHECK(c.send("SET p 1\r\nEXPIRE p 5 XX\r\nEXPIRE p 5 GT\r\nEXPIRE p 5 LT\r\nTTL p\r\n") ==
        "+OK\r\n:0\r\n:0\r\n:1\r\n:5\r\n");
  CHECK(c.send("EXPIRE a x\r\n") == "-ERR value is not an integer or out of range\r\n");
  CHECK(c.send("EXPIRE a 10 foo\r\n") == "-ERR Unsupported option foo\r\n");
  CHECK(c.send("EXPIRE a 10 nx xx\r\n") == "-ERR NX and XX, GT or LT options at the same time are not compatible\r\n");
  CHECK(c.send("EXPIRE a 10 gt lt\r\n") == "-ERR GT and LT options at the same time are not compatible\r\n");
  CHECK(c.send("EXPIRE a 9223372036854775807\r\n") == "-ERR invalid expire time in 'expire' command\r\n");
  CHECK(c.send("PEXPIRE a 9223372036854775807\r\n") == "-ERR invalid expire time in 'pexpire' command\r\n");
  CHECK(c.send("EXPIRE a -1\r\nEXISTS a\r\n") == ":1\r\n:0\r\n");  // a time already past deletes the key
}

TEST_CASE("a pipeline's replies come out together, in order, for one write") {
  redis::Shared shared;
  Conversation c(shared);
  std::string requests;
  std::string expected;
  for (int i = 0; i < 16; ++i) {
    requests += "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + std::to_string(std::to_string(i).size()) + "\r\n" +
                std::to_string(i) + "\r\n*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n";
    expected += "+OK\r\n:" + std::to_string(i + 1) + "\r\n";
  }
  CHECK(c.send(requests) == expected);
}

TEST_CASE("a request split over many reads is answered once it is whole") {
  redis::Shared shared;
  Conversation c(shared);
  std::string request = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nhello\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
  std::string replies;
  for (char byte : request) replies += c.send(std::string_view(&byte, 1));
  CHECK(replies == "+OK\r\n$5\r\nhello\r\n");
}

TEST_CASE("a value larger than the read buffer arrives in pieces and is stored whole") {
  redis::Shared shared;
  Conversation c(shared);
  std::string value(5 * redis::Session::read_size + 7, 'v');
  value[0] = 'a';
  value.back() = 'z';
  std::string request = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + std::to_string(value.size()) + "\r\n" + value + "\r\n";
  std::string replies;
  for (std::size_t at = 0; at < request.size(); at += 1000) replies += c.send(std::string_view(request).substr(at, 1000));
  CHECK(replies == "+OK\r\n");
  CHECK(c.send("GET k\r\n") == "$" + std::to_string(value.size()) + "\r\n" + value + "\r\n");
}

TEST_CASE("a protocol error is answered after the replies before it, and the session closes, as Redis's does") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("PING\r\n*x\r\nPING\r\n") == "+PONG\r\n-ERR Protocol error: invalid multibulk length\r\n");
  CHECK(c.session.closing());
  redis::Session other(shared, [] {});
  CHECK_FALSE(other.closing());
}

TEST_CASE("QUIT answers OK and closes; nothing after it runs") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("QUIT\r\nSET k v\r\n") == "+OK\r\n");
  CHECK(c.session.closing());
  Conversation d(shared);
  CHECK(d.send("GET k\r\n") == "$-1\r\n");
}

TEST_CASE("COMMAND and CONFIG GET answer what redis-cli and redis-benchmark ask") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("COMMAND DOCS\r\n") == "*0\r\n");
  CHECK(c.send("CONFIG GET save\r\nCONFIG GET appendonly\r\nCONFIG GET nosuch\r\n") ==
        "*2\r\n$4\r\nsave\r\n$0\r\n\r\n*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n*0\r\n");
  CHECK(c.send("CONFIG\r\nCONFIG GET\r\nCONFIG foo\r\n") ==
        "-ERR wrong number of arguments for 'config' command\r\n"
        "-ERR wrong number of arguments for 'config|get' command\r\n"
        "-ERR unknown subcommand 'foo'. Try CONFIG HELP.\r\n");
}

TEST_CASE("SUBSCRIBE, PUBLISH, UNSUBSCRIBE: Redis's replies, and the message reaches the subscriber") {
  redis::Shared shared;
  Conversation subscriber(shared);
  Conversation publisher(shared);
  CHECK(subscriber.send("SUBSCRIBE a b\r\n") ==
        "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n");
  CHECK(subscriber.session.subscribed());
  CHECK(subscriber.wakes == 0);
  CHECK(publisher.send("PUBLISH b hello\r\nPUBLISH nobody x\r\n") == ":1\r\n:0\r\n");
  CHECK(subscriber.wakes == 1);
  CHECK(subscriber.session.take_messages());
  CHECK(subscriber.take() == "*3\r\n$7\r\nmessage\r\n$1\r\nb\r\n$5\r\nhello\r\n");
  CHECK_FALSE(subscriber.session.take_messages());
  CHECK(subscriber.send("UNSUBSCRIBE\r\nPING\r\n") ==
        "*3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$11\r\nunsubscribe\r\n$1\r\nb\r\n:0\r\n+PONG\r\n");
  CHECK_FALSE(subscriber.session.subscribed());
  CHECK(publisher.send("PUBLISH b again\r\n") == ":0\r\n");
}

TEST_CASE("a subscribed client may only subscribe, unsubscribe, ping and quit") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("SUBSCRIBE a\r\nGET x\r\nPING\r\nPING m\r\nfoo\r\n") ==
        "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n"
        "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this "
        "context\r\n"
        "*2\r\n$4\r\npong\r\n$0\r\n\r\n*2\r\n$4\r\npong\r\n$1\r\nm\r\n"
        "-ERR unknown command 'foo', with args beginning with: \r\n");
  CHECK(c.send("SUBSCRIBE\r\n") == "-ERR wrong number of arguments for 'subscribe' command\r\n");
}

TEST_CASE("UNSUBSCRIBE with nothing subscribed answers as Redis does") {
  redis::Shared shared;
  Conversation c(shared);
  CHECK(c.send("UNSUBSCRIBE\r\n") == "*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n");
  CHECK(c.send("UNSUBSCRIBE x y\r\nPING\r\n") ==
        "*3\r\n$11\r\nunsubscribe\r\n$1\r\nx\r\n:0\r\n*3\r\n$11\r\nunsubscribe\r\n$1\r\ny\r\n:0\r\n+PONG\r\n");
}

TEST_CASE("a message published between a subscriber's requests comes between their replies") {
  redis::Shared shared;
  Conversation subscriber(shared);
  Conversation publisher(shared);
  CHECK(subscriber.send("SUBSCRIBE a\r\n") == "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n");
  CHECK(publisher.send("PUBLISH a m1\r\n") == ":1\r\n");
  // The subscriber's connection has not taken m1 yet when its next
  // request comes: m1 still goes out before that request's reply.
  CHECK(subscriber.send("UNSUBSCRIBE a\r\n") ==
        "*3\r\n$7\r\nmessage\r\n$1\r\na\r\n$2\r\nm1\r\n*3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:0\r\n");
}

TEST_CASE("a subscriber that never reads its messages is closed once its mailbox overflows") {
  redis::Shared shared;
  Conversation subscriber(shared);
  Conversation publisher(shared);
  subscriber.send("SUBSCRIBE a\r\n");
  std::string message(1024 * 1024, 'm');
  std::string publish = "*3\r\n$7\r\nPUBLISH\r\n$1\r\na\r\n$" + std::to_string(message.size()) + "\r\n" + message + "\r\n";
  for (std::size_t sent = 0; sent <= redis::Subscriber::mailbox_limit / message.size(); ++sent) publisher.send(publish);
  subscriber.session.take_messages();
  CHECK(subscriber.session.closing());
}

TEST_CASE("a closed session's subscriptions are gone: publishing reaches nobody") {
  redis::Shared shared;
  Conversation publisher(shared);
  {
    Conversation subscriber(shared);
    subscriber.send("SUBSCRIBE a\r\n");
    CHECK(publisher.send("PUBLISH a x\r\n") == ":1\r\n");
  }
  CHECK(publisher.send("PUBLISH a x\r\n") == ":0\r\n");
}
