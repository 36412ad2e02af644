// The request parser; see resp.hpp. Where Redis is lenient, so is this
// parser, so that a request means here what it means to Redis: a line ends
// at its '\r' (the next byte is skipped unread), and the two bytes after a
// bulk string are skipped unread too.
#include "capstone/resp.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

namespace redis::resp {

std::optional<std::int64_t> parse_integer(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  if (text == "0") return 0;
  std::size_t first = text[0] == '-' ? 1 : 0;
  if (first == text.size() || text[first] < '1' || text[first] > '9') return std::nullopt;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

namespace {

// Where `what` is in input[from, end), or npos.
std::size_t find(std::span<const char> input, std::size_t from, char what) {
  if (from >= input.size()) return std::string_view::npos;
  const void* at = std::memchr(input.data() + from, what, input.size() - from);
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - input.data()) : std::string_view::npos;
}

std::string_view view(std::span<const char> input, std::size_t from, std::size_t to) {
  return {input.data() + from, to - from};
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_value(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // C's isspace

// Splits an inline request's line into arguments as Redis's sdssplitargs
// does: blanks separate them; "double quotes" take the escapes \n \r \t \b
// \a \xHH and \<any>; 'single quotes' take \' only; a closing quote must
// be followed by a blank or the end. Each argument is written back over
// the line (never longer than its source), and its start and length are
// pushed on `offsets`. False when the quotes do not balance.
bool split_inline(char* line, std::size_t length, std::vector<std::size_t>& offsets) {
  std::size_t p = 0;
  std::size_t w = 0;  // where the unquoted bytes go: never past p
  auto at = [&](std::size_t i) { return i < length ? line[i] : '\0'; };
  for (;;) {
    while (p < length && is_space(line[p])) ++p;
    if (p == length) return true;
    std::size_t start = w;
    bool in_double = false;
    bool in_single = false;
    for (bool done = false; !done;) {
      char c = at(p);
      if (in_double) {
        if (c == '\\' && at(p + 1) == 'x' && is_hex(at(p + 2)) && is_hex(at(p + 3))) {
          line[w++] = static_cast<char>(hex_value(at(p + 2)) * 16 + hex_value(at(p + 3)));
          p += 3;
        } else if (c == '\\' && at(p + 1) != '\0') {
          char e = at(++p);
          line[w++] = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'b' ? '\b' : e == 'a' ? '\a' : e;
        } else if (c == '"') {
          if (at(p + 1) != '\0' && !is_space(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;  // the quotes never close
        } else {
          line[w++] = c;
        }
      } else if (in_single) {
        if (c == '\\' && at(p + 1) == '\'') {
          ++p;
          line[w++] = '\'';
        } else if (c == '\'') {
          if (at(p + 1) != '\0' && !is_space(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;
        } else {
          line[w++] = c;
        }
      } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\0') {
        done = true;
      } else if (c == '"') {
        in_double = true;
      } else if (c == '\'') {
        in_single = true;
      } else {
        line[w++] = c;
      }
      if (p < length) ++p;
    }
    offsets.push_back(start);
    offsets.push_back(w - start);
  }
}

}  // namespace

Status Parser::parse(std::span<char> input) {
  if (input.empty()) {
    wanted_ = 1;
    return Status::incomplete;
  }
  return input[0] == '*' ? parse_array(input) : parse_inline(input);
}

Status Parser::parse_array(std::span<char> input) {
  if (remaining_ < 0) {
    // The count line: `*N\r\n`.
    std::size_t r = find(input, std::max<std::size_t>(scanned_, 1), '\r');
    if (r == std::string_view::npos) {
      if (input.size() > max_inline) return fail("Protocol error: too big mbulk count string");
      scanned_ = input.size();
      wanted_ = input.size() + 2;
      return Status::incomplete;
    }
    if (r + 2 > input.size()) {
      scanned_ = r;
      wanted_ = r + 2;
      return Status::incomplete;
    }
    std::optional<std::int64_t> count = parse_integer(view(input, 1, r));
    if (!count || *count > INT_MAX) return fail("Protocol error: invalid multibulk length");
    offsets_.clear();
    if (*count <= 0) return finish(input, r + 2);  // Redis ignores it
    remaining_ = *count;
    offsets_.reserve(2 * static_cast<std::size_t>(std::min<std::int64_t>(remaining_, 1024)));
    scanned_ = r + 2;
  }
  // scanned_ is where the next element starts.
  while (remaining_ > 0) {
    if (bulk_ < 0) {
      // The length line: `$N\r\n`.
      std::size_t r = find(input, scanned_, '\r');
      if (r == std::string_view::npos) {
        if (input.size() - scanned_ > max_inline) return fail("Protocol error: too big bulk count string");
        wanted_ = input.size() + 2;
        return Status::incomplete;
      }
      if (r + 2 > input.size()) {
        wanted_ = r + 2;
        return Status::incomplete;
      }
      if (input[scanned_] != '$') {
        return fail(std::string("Protocol error: expected '$', got '") + input[scanned_] + "'");
      }
      std::optional<std::int64_t> length = parse_integer(view(input, scanned_ + 1, r));
      if (!length || *length < 0 || *length > max_bulk) return fail("Protocol error: invalid bulk length");
      bulk_ = *length;
      scanned_ = r + 2;
    }
    std::size_t end = scanned_ + static_cast<std::size_t>(bulk_) + 2;
    if (input.size() < end) {
      wanted_ = end;
      return Status::incomplete;
    }
    offsets_.push_back(scanned_);
    offsets_.push_back(static_cast<std::size_t>(bulk_));
    scanned_ = end;
    bulk_ = -1;
    --remaining_;
  }
  return finish(input, scanned_);
}

Status Parser::parse_inline(std::span<char> input) {
  // Redis looks for the line's end as in a C string, which a NUL byte ends:
  // a line with a NUL before its newline never ends, and waits (answering
  // nothing) until the limit refuses it. scanned_ stays at the NUL.
  std::size_t newline = find(input, scanned_, '\n');
  std::size_t nul = find(input.first(std::min(newline, input.size())), scanned_, '\0');
  if (newline == std::string_view::npos || nul != std::string_view::npos) {
    if (input.size() > max_inline) return fail("Protocol error: too big inline request");
    scanned_ = std::min(nul, input.size());
    wanted_ = input.size() + 1;
    return Status::incomplete;
  }
  // As Redis: longer than the limit is refused even when its end came in
  // the same read (Redis reads 16 KB at a time, and sees it too long first).
  if (newline > max_inline) return fail("Protocol error: too big inline request");
  std::size_t end = newline > 0 && input[newline - 1] == '\r' ? newline - 1 : newline;
  offsets_.clear();
  if (!split_inline(input.data(), end, offsets_)) return fail("Protocol error: unbalanced quotes in request");
  return finish(input, newline + 1);
}

Status Parser::finish(std::span<char> input, std::size_t end) {
  args_.clear();
  for (std::size_t i = 0; i < offsets_.size(); i += 2) args_.emplace_back(input.data() + offsets_[i], offsets_[i + 1]);
  consumed_ = end;
  scanned_ = 0;
  remaining_ = -1;
  bulk_ = -1;
  wanted_ = 0;
  return Status::complete;
}

Status Parser::fail(std::string message) {
  // An error reply is one line: Redis turns line ends in it into spaces.
  std::replace_if(message.begin(), message.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  error_ = std::move(message);
  return Status::error;
}

}  // namespace redis::resp
