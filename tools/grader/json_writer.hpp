// A small JSON writer. Test output is arbitrary bytes, so strings are
// escaped completely: control characters as \u escapes, and bytes that are
// not valid UTF-8 replaced by U+FFFD, so the document always parses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace grader {

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

class JsonWriter {
 public:
  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);

  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(int number);
  void value(double number);
  void value(bool flag);

  template <typename T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

  const std::string& text() const { return out_; }

 private:
  void before_value();
  void open(char bracket);
  void close(char bracket);

  std::string out_;
  std::vector<bool> empty_;  // per open object/array: nothing written yet
  bool after_key_ = false;
};

}  // namespace grader
