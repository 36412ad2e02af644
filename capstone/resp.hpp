// RESP2, the Redis protocol: an incremental parser of requests and the
// encoders of replies. Mirrors mini-redis's frame.rs and parse.rs, and the
// request parsing of Redis itself (processMultibulkBuffer and
// processInlineBuffer in networking.c), whose error messages it keeps.
//
//   redis::resp::Parser parser;
//   switch (parser.parse(received)) {        // the bytes not consumed yet
//     case Status::complete:   run(parser.args()); drop(parser.consumed()); break;
//     case Status::incomplete: read more, then call parse again; break;
//     case Status::error:      answer parser.error(), then close; break;
//   }
//
// A request is either an array of bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`,
// what clients send) or an inline command (`GET k\r\n`, what a person types
// into telnet, and what redis-benchmark's PING_INLINE sends). The parser
// keeps its place between calls, so a request that arrives a byte at a time
// is scanned once, not once per byte; the arguments it returns are views
// into the caller's buffer, so parsing allocates nothing once warm.
//
// This is plain C++: no runtime, no I/O. The course's server and its Asio
// twin share it.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace redis::resp {

enum class Status { complete, incomplete, error };

class Parser {
 public:
  // Inline requests and the count lines of arrays may not be longer than
  // this without their line end (Redis's PROTO_INLINE_MAX_SIZE).
  static constexpr std::size_t max_inline = 64 * 1024;
  // A bulk string may not be longer (Redis's proto-max-bulk-len default).
  static constexpr std::int64_t max_bulk = 512LL * 1024 * 1024;

  // Parses the request at the front of `input`: the bytes received and not
  // consumed yet, starting with those given to the last call that said
  // incomplete (they may have moved: the parser keeps offsets, not
  // pointers). Inline arguments are unquoted in place, so `input` is
  // written to.
  //  - complete: args() holds the request (empty for a request Redis
  //    ignores: an empty line, `*0`), and consumed() says how many bytes
  //    it took; the next call starts a new request.
  //  - incomplete: all of `input` is part of one unfinished request.
  //  - error: error() says what is wrong, in Redis's words; the parser
  //    can go no further (Redis answers and closes the connection).
  Status parse(std::span<char> input);

  std::span<const std::string_view> args() const { return args_; }
  std::size_t consumed() const { return consumed_; }
  std::string_view error() const { return error_; }
  // The fewest bytes the unfinished request needs in all, as far as is
  // known: a buffer smaller than this cannot hold it.
  std::size_t wanted() const { return wanted_; }

 private:
  Status parse_array(std::span<char> input);
  Status parse_inline(std::span<char> input);
  Status fail(std::string message);
  Status finish(std::span<char> input, std::size_t end);

  // The request in progress: where its bytes have been scanned up to, and
  // for an array, the arguments still expected and the length of the bulk
  // being read (-1: its `$` line is next).
  std::size_t scanned_ = 0;
  std::int64_t remaining_ = -1;  // -1: the count line is not read yet
  std::int64_t bulk_ = -1;
  std::vector<std::size_t> offsets_;  // start and length of each argument, in pairs
  std::vector<std::string_view> args_;
  std::size_t consumed_ = 0;
  std::size_t wanted_ = 0;
  std::string error_;
};

// Redis's string2ll: a decimal integer in canonical form (no sign but a
// leading '-', no leading zeros, no spaces, no "-0"), in range. The rule for
// every count and length in a request, and for INCR's stored values.
std::optional<std::int64_t> parse_integer(std::string_view text);

// The replies, appended to an output buffer: one buffer collects every
// reply to one read's requests, which go out in one write.
inline void simple(std::string& out, std::string_view text) {
  out += '+';
  out += text;
  out += "\r\n";
}
// `message` starts with its code ("ERR ...", "WRONGTYPE ...").
inline void error(std::string& out, std::string_view message) {
  out += '-';
  out += message;
  out += "\r\n";
}
inline void number(std::string& out, char type, std::int64_t value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  (void)ec;  // 24 characters hold every 64-bit integer
  out += type;
  out.append(digits, end);
  out += "\r\n";
}
inline void integer(std::string& out, std::int64_t value) { number(out, ':', value); }
inline void bulk(std::string& out, std::string_view value) {
  number(out, '$', static_cast<std::int64_t>(value.size()));
  out += value;
  out += "\r\n";
}
inline void null_bulk(std::string& out) { out += "$-1\r\n"; }
inline void array(std::string& out, std::size_t length) { number(out, '*', static_cast<std::int64_t>(length)); }

}  // namespace redis::resp
