// The commands' rules and replies; see commands.hpp. A table maps each
// name to its arity (Redis's: n exactly, -n at least) and its function;
// the checks every command shares (is it known, is the arity right, may a
// subscribed client run it) come first, in Redis's order.
#include "capstone/commands.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>

#include "capstone/resp.hpp"

namespace redis {

namespace {

using Args = std::span<const std::string_view>;

struct Call {
  Client& client;
  Args args;
  Instant now;
  std::string& out;
  std::string_view name;  // the command's name in lower case, as Redis names it in errors
};

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `text` is `lower_name` in any case.
bool is(std::string_view text, std::string_view lower_name) {
  if (text.size() != lower_name.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (lower(text[i]) != lower_name[i]) return false;
  }
  return true;
}

void reply_error(std::string& out, std::string message) {
  // An error reply is one line: Redis turns line ends in it into spaces.
  std::replace_if(message.begin(), message.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  resp::error(out, message);
}

void not_an_integer(std::string& out) { resp::error(out, "ERR value is not an integer or out of range"); }
void syntax_error(std::string& out) { resp::error(out, "ERR syntax error"); }
void invalid_expire_time(Call& call) {
  reply_error(call.out, "ERR invalid expire time in '" + std::string(call.name) + "' command");
}

// Milliseconds since the Unix epoch: what Redis's EX, PX, EXAT and EXPIRE
// deadlines are checked for overflow against, and EXAT is measured in.
std::int64_t unix_millis() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// A deadline in Unix milliseconds, as an instant on the caller's clock.
Instant from_unix(std::int64_t unix_deadline, std::int64_t unix_now, Instant now) {
  return now + Millis(unix_deadline - unix_now);
}

void ping(Call& call) {
  if (call.args.size() > 2) {
    reply_error(call.out, "ERR wrong number of arguments for 'ping' command");
  } else if (call.client.subscribed()) {
    // A subscribed client's PING is answered as a message would be (RESP2).
    resp::array(call.out, 2);
    resp::bulk(call.out, "pong");
    resp::bulk(call.out, call.args.size() == 2 ? call.args[1] : std::string_view());
  } else if (call.args.size() == 2) {
    resp::bulk(call.out, call.args[1]);
  } else {
    resp::simple(call.out, "PONG");
  }
}

void echo(Call& call) { resp::bulk(call.out, call.args[1]); }

void get(Call& call) {
  std::string& out = call.out;
  if (!call.client.shared.db.read(call.args[1], call.now, [&](std::string_view value) { resp::bulk(out, value); })) {
    resp::null_bulk(out);
  }
}

// SET's options, as Redis 7 parses them: NX and XX exclude each other, EX,
// PX, EXAT, PXAT and KEEPTTL too, and a repeated option is taken again.
void set(Call& call) {
  using Condition = Db::SetOptions::Condition;
  Db::SetOptions options;
  bool want_old = false;
  enum class Unit { none, ex, px, exat, pxat } unit = Unit::none;
  std::string_view time;
  for (std::size_t i = 3; i < call.args.size(); ++i) {
    std::string_view option = call.args[i];
    bool has_next = i + 1 < call.args.size();
    bool timed = unit != Unit::none;
    if (is(option, "nx") && options.condition != Condition::if_present) {
      options.condition = Condition::if_absent;
    } else if (is(option, "xx") && options.condition != Condition::if_absent) {
      options.condition = Condition::if_present;
    } else if (is(option, "get")) {
      want_old = true;
    } else if (is(option, "keepttl") && !timed) {
      options.keep_ttl = true;
    } else if (has_next && !options.keep_ttl && (!timed || unit == Unit::ex) && is(option, "ex")) {
      unit = Unit::ex;
      time = call.args[++i];
    } else if (has_next && !options.keep_ttl && (!timed || unit == Unit::px) && is(option, "px")) {
      unit = Unit::px;
      time = call.args[++i];
    } else if (has_next && !options.keep_ttl && (!timed || unit == Unit::exat) && is(option, "exat")) {
      unit = Unit::exat;
      time = call.args[++i];
    } else if (has_next && !options.keep_ttl && (!timed || unit == Unit::pxat) && is(option, "pxat")) {
      unit = Unit::pxat;
      time = call.args[++i];
    } else {
      return syntax_error(call.out);
    }
  }
  if (unit != Unit::none) {
    std::optional<std::int64_t> amount = resp::parse_integer(time);
    if (!amount) return not_an_integer(call.out);
    bool seconds = unit == Unit::ex || unit == Unit::exat;
    if (*amount <= 0 || (seconds && *amount > LLONG_MAX / 1000)) return invalid_expire_time(call);
    std::int64_t millis = seconds ? *amount * 1000 : *amount;
    std::int64_t unix_now = unix_millis();
    bool relative = unit == Unit::ex || unit == Unit::px;
    if (relative && millis > LLONG_MAX - unix_now) return invalid_expire_time(call);
    options.expires_at = relative ? call.now + Millis(millis) : from_unix(millis, unix_now, call.now);
  }
  std::string old;
  Db::SetResult result = call.client.shared.db.set(call.args[1], call.args[2], options, call.now, want_old ? &old : nullptr);
  if (want_old) {
    result.existed ? resp::bulk(call.out, old) : resp::null_bulk(call.out);
  } else if (result.written) {
    resp::simple(call.out, "OK");
  } else {
    resp::null_bulk(call.out);
  }
}

void del(Call& call) {
  std::int64_t removed = 0;
  for (std::size_t i = 1; i < call.args.size(); ++i) removed += call.client.shared.db.remove(call.args[i], call.now);
  resp::integer(call.out, removed);
}

void exists(Call& call) {
  std::int64_t found = 0;
  for (std::size_t i = 1; i < call.args.size(); ++i) found += call.client.shared.db.exists(call.args[i], call.now);
  resp::integer(call.out, found);
}

void add(Call& call, std::int64_t delta) {
  Db::IncrResult result = call.client.shared.db.increment(call.args[1], delta, call.now);
  switch (result.status) {
    case Db::IncrStatus::ok: return resp::integer(call.out, result.value);
    case Db::IncrStatus::not_integer: return not_an_integer(call.out);
    case Db::IncrStatus::overflow: return resp::error(call.out, "ERR increment or decrement would overflow");
  }
}

void incr(Call& call) { add(call, 1); }
void decr(Call& call) { add(call, -1); }

void incrby(Call& call) {
  std::optional<std::int64_t> delta = resp::parse_integer(call.args[2]);
  if (!delta) return not_an_integer(call.out);
  add(call, *delta);
}

void decrby(Call& call) {
  std::optional<std::int64_t> delta = resp::parse_integer(call.args[2]);
  if (!delta) return not_an_integer(call.out);
  if (*delta == LLONG_MIN) return resp::error(call.out, "ERR decrement would overflow");
  add(call, -*delta);
}

// EXPIRE and PEXPIRE, as Redis 7's expireGenericCommand: the options
// first, then the number, then its overflow, then the key.
void expire_in(Call& call, bool seconds) {
  Db::ExpireCondition condition;
  for (std::size_t i = 3; i < call.args.size(); ++i) {
    std::string_view option = call.args[i];
    if (is(option, "nx")) {
      condition.nx = true;
    } else if (is(option, "xx")) {
      condition.xx = true;
    } else if (is(option, "gt")) {
      condition.gt = true;
    } else if (is(option, "lt")) {
      condition.lt = true;
    } else {
      return reply_error(call.out, "ERR Unsupported option " + std::string(option));
    }
  }
  if (condition.nx && (condition.xx || condition.gt || condition.lt)) {
    return resp::error(call.out, "ERR NX and XX, GT or LT options at the same time are not compatible");
  }
  if (condition.gt && condition.lt) {
    return resp::error(call.out, "ERR GT and LT options at the same time are not compatible");
  }
  std::optional<std::int64_t> amount = resp::parse_integer(call.args[2]);
  if (!amount) return not_an_integer(call.out);
  std::int64_t millis = *amount;
  if (seconds) {
    if (millis > LLONG_MAX / 1000 || millis < LLONG_MIN / 1000) return invalid_expire_time(call);
    millis *= 1000;
  }
  if (millis > LLONG_MAX - unix_millis()) return invalid_expire_time(call);
  resp::integer(call.out, call.client.shared.db.expire(call.args[1], call.now + Millis(millis), condition, call.now));
}

void expire(Call& call) { expire_in(call, true); }
void pexpire(Call& call) { expire_in(call, false); }

void time_to_live(Call& call, bool millis) {
  std::optional<Instant> when = call.client.shared.db.expiry(call.args[1], call.now);
  if (!when) return resp::integer(call.out, -2);
  if (*when == never) return resp::integer(call.out, -1);
  std::int64_t left = std::max<std::int64_t>(0, (*when - call.now).count());
  resp::integer(call.out, millis ? left : (left + 500) / 1000);
}

void ttl(Call& call) { time_to_live(call, false); }
void pttl(Call& call) { time_to_live(call, true); }

void dbsize(Call& call) { resp::integer(call.out, static_cast<std::int64_t>(call.client.shared.db.size())); }

void publish(Call& call) {
  std::size_t receivers = call.client.shared.pubsub.publish(call.args[1], call.args[2]);
  resp::integer(call.out, static_cast<std::int64_t>(receivers));
}

// SUBSCRIBE and UNSUBSCRIBE reply through the mailbox (pubsub.hpp).
void subscribe(Call& call) {
  for (std::size_t i = 1; i < call.args.size(); ++i) call.client.shared.pubsub.subscribe(call.args[i], call.client.subscriber);
  call.client.posted = true;
}

void unsubscribe(Call& call) {
  PubSub& pubsub = call.client.shared.pubsub;
  if (call.args.size() == 1) pubsub.unsubscribe_all(call.client.subscriber);
  for (std::size_t i = 1; i < call.args.size(); ++i) pubsub.unsubscribe(call.args[i], call.client.subscriber);
  call.client.posted = true;
}

void quit(Call& call) {
  resp::simple(call.out, "OK");
  call.client.quit = true;
}

void unknown_subcommand(Call& call, std::string_view help) {
  reply_error(call.out, "ERR unknown subcommand '" + std::string(call.args[1].substr(0, 128)) + "'. Try " +
                            std::string(help) + " HELP.");
}

// COMMAND: redis-cli asks for COMMAND DOCS, to show hints as one types;
// an empty answer means "no hints".
void command(Call& call) {
  if (call.args.size() == 1 || is(call.args[1], "docs") || is(call.args[1], "info")) return resp::array(call.out, 0);
  if (is(call.args[1], "count")) return resp::integer(call.out, 0);
  unknown_subcommand(call, "COMMAND");
}

// CONFIG GET: redis-benchmark asks for `save` and `appendonly` (to warn
// when the server persists while measured); nothing is persisted here.
void config(Call& call) {
  if (!is(call.args[1], "get")) return unknown_subcommand(call, "CONFIG");
  if (call.args.size() < 3) return resp::error(call.out, "ERR wrong number of arguments for 'config|get' command");
  constexpr std::string_view parameters[][2] = {{"save", ""}, {"appendonly", "no"}};
  std::size_t matched = 0;
  std::string pairs;
  for (auto& [name, value] : parameters) {
    for (std::size_t i = 2; i < call.args.size(); ++i) {
      if (call.args[i] == "*" || is(call.args[i], name)) {
        resp::bulk(pairs, name);
        resp::bulk(pairs, value);
        ++matched;
        break;
      }
    }
  }
  resp::array(call.out, 2 * matched);
  call.out += pairs;
}

struct Command {
  std::string_view name;
  int arity;  // n: exactly n arguments, the name included; -n: at least n
  bool when_subscribed;  // allowed in subscribe mode
  void (*run)(Call&);
};

// The commands redis-benchmark times come first: the lookup is a scan.
constexpr Command commands[] = {
    {"get", 2, false, get},
    {"set", -3, false, set},
    {"ping", -1, true, ping},
    {"incr", 2, false, incr},
    {"echo", 2, false, echo},
    {"del", -2, false, del},
    {"exists", -2, false, exists},
    {"decr", 2, false, decr},
    {"incrby", 3, false, incrby},
    {"decrby", 3, false, decrby},
    {"expire", -3, false, expire},
    {"pexpire", -3, false, pexpire},
    {"ttl", 2, false, ttl},
    {"pttl", 2, false, pttl},
    {"dbsize", 1, false, dbsize},
    {"publish", 3, false, publish},
    {"subscribe", -2, true, subscribe},
    {"unsubscribe", -1, true, unsubscribe},
    {"quit", -1, true, quit},
    {"command", -1, false, command},
    {"config", -2, false, config},
};

const Command* find(std::string_view name) {
  for (const Command& command : commands) {
    if (is(name, command.name)) return &command;
  }
  return nullptr;
}

// Redis's message, its arguments cut at 128 characters in all.
void unknown_command(std::string& out, Args args) {
  std::string message = "ERR unknown command '" + std::string(args[0].substr(0, 128)) + "', with args beginning with: ";
  std::string listed;
  for (std::size_t i = 1; i < args.size() && listed.size() < 128; ++i) {
    std::size_t room = 128 - listed.size();
    listed += '\'';
    listed += args[i].substr(0, room);
    listed += "' ";
  }
  reply_error(out, message + listed);
}

void dispatch(Client& client, Args args, Instant now, std::string& out) {
  const Command* command = find(args[0]);
  if (!command) return unknown_command(out, args);
  auto given = static_cast<int>(std::min<std::size_t>(args.size(), INT_MAX));
  if ((command->arity > 0 && given != command->arity) || (command->arity < 0 && given < -command->arity)) {
    return reply_error(out, "ERR wrong number of arguments for '" + std::string(command->name) + "' command");
  }
  if (client.subscribed() && !command->when_subscribed) {
    return reply_error(out, "ERR Can't execute '" + std::string(command->name) +
                                "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in "
                                "this context");
  }
  Call call{client, args, now, out, command->name};
  command->run(call);
}

}  // namespace

void execute(Client& client, std::span<const std::string_view> args, Instant now, std::string& out) {
  if (client.subscribed()) {
    client.reply.clear();
    dispatch(client, args, now, client.reply);
    if (!client.reply.empty()) client.subscriber.post(client.reply);
    client.posted = true;
  } else {
    dispatch(client, args, now, out);
  }
  // Out of subscribe mode again: what waits in the mailbox goes before
  // the replies that follow.
  if (client.posted && !client.subscribed()) {
    client.subscriber.take(out);
    client.posted = false;
  }
}

}  // namespace redis
