// JSON writing and string escaping; see json_writer.hpp.
#include "json_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

namespace grader {

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 when
// there is none (stray continuation byte, truncated or overlong sequence,
// surrogate, beyond U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  // The lead byte says how long the sequence is and carries the top bits.
  std::size_t length = 0;
  std::uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

void append_escaped_ascii(std::string& out, char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    default:
      break;
  }
  auto code = static_cast<unsigned char>(c);
  if (code < 0x20 || code == 0x7F)
    out += fmt::format("\\u{:04x}", code);
  else
    out += c;
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = utf8_length(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
    } else if (length == 1) {
      append_escaped_ascii(out, text[i++]);
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out + "\"";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!empty_.empty()) {
    if (!empty_.back()) out_ += ",";
    empty_.back() = false;
  }
}

void JsonWriter::open(char bracket) {
  before_value();
  out_ += bracket;
  empty_.push_back(true);
}

void JsonWriter::close(char bracket) {
  empty_.pop_back();
  out_ += bracket;
}

void JsonWriter::begin_object() {
  open('{');
}
void JsonWriter::end_object() {
  close('}');
}
void JsonWriter::begin_array() {
  open('[');
}
void JsonWriter::end_array() {
  close(']');
}

void JsonWriter::key(std::string_view name) {
  before_value();
  out_ += json_string(name) + ":";
  after_key_ = true;
}

void JsonWriter::value(std::string_view text) {
  before_value();
  out_ += json_string(text);
}

void JsonWriter::value(int number) {
  before_value();
  out_ += std::to_string(number);
}

// JSON has no NaN or infinity.
void JsonWriter::value(double number) {
  before_value();
  out_ += std::isfinite(number) ? fmt::format("{:.3f}", number) : "null";
}

void JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
}

}  // namespace grader
