// The RESP2 request parser (capstone/resp.hpp): requests split at every
// byte, pipelines, inline commands, and malformed input answered with
// Redis's own messages (those a real redis-server 7 sends for the same
// bytes).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "capstone/resp.hpp"

using redis::resp::Parser;
using redis::resp::Status;

namespace {

struct Parsed {
  Status status;
  std::vector<std::string> args;
  std::size_t consumed = 0;
  std::string error;
};

Parsed parse(Parser& parser, std::string& bytes) {
  Parsed result{parser.parse(bytes), {}, 0, {}};
  if (result.status == Status::complete) {
    for (std::string_view arg : parser.args()) result.args.emplace_back(arg);
    result.consumed = parser.consumed();
  }
  if (result.status == Status::error) result.error = std::string(parser.error());
  return result;
}

Parsed parse_once(std::string bytes) {
  Parser parser;
  return parse(parser, bytes);
}

std::vector<std::string> words(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

// Feeds `request` a byte more each time, as a slow client would, copying
// what was received into a fresh buffer each time (a connection moves its
// unparsed bytes to the front of its buffer between reads).
void check_split_everywhere(const std::string& request, const std::vector<std::string>& expected) {
  Parser parser;
  for (std::size_t n = 0; n < request.size(); ++n) {
    std::string received = request.substr(0, n);
    Parsed result = parse(parser, received);
    CAPTURE(n);
    REQUIRE(result.status == Status::incomplete);
  }
  std::string all = request;
  Parsed result = parse(parser, all);
  REQUIRE(result.status == Status::complete);
  CHECK(result.args == expected);
  CHECK(result.consumed == request.size());
}

}  // namespace

TEST_CASE("an array of bulk strings is parsed, split at any byte") {
  check_split_everywhere("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nva\r\nl\r\n", words({"SET", "key", "va\r\nl"}));
  check_split_everywhere("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n", words({"ECHO", ""}));
}

TEST_CASE("an inline command is parsed, split at any byte") {
  check_split_everywhere("PING\r\n", words({"PING"}));
  check_split_everywhere("SET  k\t\"a b\\n\\x41\"\n", words({"SET", "k", "a b\nA"}));
}

TEST_CASE("a pipeline is parsed one request at a time, and the next starts where one ended") {
  std::string bytes = "*1\r\n$4\r\nPING\r\nGET k\r\n*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n*1\r\n$3\r\nGE";
  Parser parser;
  std::vector<std::vector<std::string>> requests;
  std::size_t at = 0;
  for (;;) {
    std::string rest = bytes.substr(at);
    Parsed result = parse(parser, rest);
    if (result.status != Status::complete) {
      CHECK(result.status == Status::incomplete);
      break;
    }
    requests.push_back(result.args);
    at += result.consumed;
  }
  CHECK(requests == std::vector<std::vector<std::string>>{words({"PING"}), words({"GET", "k"}), words({"ECHO", "hi"})});
  CHECK(bytes.substr(at) == "*1\r\n$3\r\nGE");
}

TEST_CASE("requests Redis ignores are complete and empty: an empty line, an array of zero or fewer") {
  for (const char* bytes : {"\r\n", "\n", "   \r\n", "*0\r\n", "*-1\r\n"}) {
    CAPTURE(bytes);
    Parsed result = parse_once(bytes);
    CHECK(result.status == Status::complete);
    CHECK(result.args.empty());
    CHECK(result.consumed == std::string_view(bytes).size());
  }
}

TEST_CASE("inline quotes follow Redis: single quotes take only \\', a closing quote needs a blank after it") {
  Parsed single = parse_once("SET 'a\\'b' \"x\\ty\"\r\n");
  CHECK(single.args == words({"SET", "a'b", "x\ty"}));
  Parsed mid = parse_once("SET k\"v w\" x\r\n");
  CHECK(mid.args == words({"SET", "kv w", "x"}));
  for (const char* bytes : {"SET \"a b\r\n", "SET \"a\"b c\r\n", "SET 'a\r\n"}) {
    CAPTURE(bytes);
    Parsed result = parse_once(bytes);
    CHECK(result.status == Status::error);
    CHECK(result.error == "Protocol error: unbalanced quotes in request");
  }
}

TEST_CASE("malformed arrays get Redis's protocol errors") {
  struct Case {
    const char* bytes;
    const char* error;
  };
  for (Case c : {Case{"*x\r\n", "Protocol error: invalid multibulk length"},
                 Case{"*01\r\n", "Protocol error: invalid multibulk length"},
                 Case{"*+1\r\n", "Protocol error: invalid multibulk length"},
                 Case{"*\r\n", "Protocol error: invalid multibulk length"},
                 Case{"*2147483648\r\n", "Protocol error: invalid multibulk length"},
                 Case{"*1\r\nx\r\n", "Protocol error: expected '$', got 'x'"},
                 Case{"*1\r\n$-1\r\n", "Protocol error: invalid bulk length"},
                 Case{"*1\r\n$1x\r\n", "Protocol error: invalid bulk length"},
                 Case{"*1\r\n$04\r\n", "Protocol error: invalid bulk length"},
                 Case{"*1\r\n$536870913\r\n", "Protocol error: invalid bulk length"}}) {
    CAPTURE(c.bytes);
    Parsed result = parse_once(c.bytes);
    CHECK(result.status == Status::error);
    CHECK(result.error == c.error);
  }
}

TEST_CASE("a line too long without its end is an error, not an ever-growing buffer") {
  CHECK(parse_once(std::string(Parser::max_inline + 1, 'a')).error == "Protocol error: too big inline request");
  CHECK(parse_once(std::string(Parser::max_inline, 'a')).status == Status::incomplete);
  // Whole, with its end in the same read, it is still too long.
  CHECK(parse_once("PING " + std::string(70 * 1024, 'a') + "\r\n").error == "Protocol error: too big inline request");
  CHECK(parse_once("PING " + std::string(Parser::max_inline - 10, 'a') + "\r\n").status == Status::complete);
  CHECK(parse_once("*" + std::string(Parser::max_inline, '1')).error == "Protocol error: too big mbulk count string");
  CHECK(parse_once("*1\r\n$" + std::string(Parser::max_inline, '1')).error == "Protocol error: too big bulk count string");
}

TEST_CASE("as in Redis, a NUL byte hides an inline line's end: nothing is answered until the limit refuses the line") {
  using namespace std::string_literals;
  CHECK(parse_once("\0PING\r\n"s).status == Status::incomplete);
  CHECK(parse_once("PING\0x\r\nPING\r\n"s).status == Status::incomplete);
  CHECK(parse_once("\0GET k\r\nPING\r\n"s + std::string(Parser::max_inline, 'x')).error ==
        "Protocol error: too big inline request");
  // A NUL after the line's end belongs to the next request.
  Parsed first = parse_once("PING\r\n\0PING\r\n"s);
  CHECK(first.status == Status::complete);
  CHECK(first.args == words({"PING"}));
  CHECK(first.consumed == 6);
  // Read in pieces, the line still never ends.
  Parser parser;
  std::string received = "PI\0N"s;
  CHECK(parse(parser, received).status == Status::incomplete);
  received += "G\r\n";
  CHECK(parse(parser, received).status == Status::incomplete);
}

TEST_CASE("as in Redis, the two bytes after a bulk string are skipped unread") {
  Parsed result = parse_once("*1\r\n$4\r\nPINGxxPING\r\n");
  CHECK(result.status == Status::complete);
  CHECK(result.args == words({"PING"}));
  CHECK(result.consumed == 14);
}

TEST_CASE("a bulk string's length says how much the request needs before it arrives") {
  Parser parser;
  std::string bytes = "*2\r\n$3\r\nSET\r\n$100000\r\nabc";
  CHECK(parser.parse(bytes) == Status::incomplete);
  CHECK(parser.wanted() == bytes.size() - 3 + 100000 + 2);
}

TEST_CASE("integers are read as Redis's string2ll reads them: canonical and in range") {
  using redis::resp::parse_integer;
  CHECK(parse_integer("0") == 0);
  CHECK(parse_integer("-12") == -12);
  CHECK(parse_integer("9223372036854775807") == INT64_MAX);
  CHECK(parse_integer("-9223372036854775808") == INT64_MIN);
  for (const char* bad : {"", "-", "-0", "01", "+1", " 1", "1 ", "1a", "9223372036854775808", "-9223372036854775809",
                          "123456789012345678901"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_integer(bad).has_value());
  }
}
