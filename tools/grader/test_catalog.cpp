// Reading TEST_CASEs out of test sources; see test_catalog.hpp. The sources
// are the course's own, so this is a small scanner for the one form the
// course uses, strict about everything else: comments and literals are
// skipped, and a TEST_CASE it cannot read is an error, never a silent skip.
#include "test_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "usage_error.hpp"

namespace grader {

namespace {

class Scanner {
 public:
  Scanner(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {}

  std::vector<DeclaredTest> tests() {
    std::vector<DeclaredTest> found;
    while (pos_ < text_.size()) {
      if (skip_comment_or_literal()) continue;
      if (is_identifier_start(text_[pos_])) {
        std::size_t start = pos_;
        std::string word = identifier();
        if (word == "TEST_CASE" && next_significant() == '(') {
          found.push_back(test_case(start));
        } else if (word.rfind("TEST_CASE_", 0) == 0 || word == "SCENARIO") {
          fail(start, "the grader reads only TEST_CASE(\"name\" * POINTS(n)), not " + word);
        }
        continue;
      }
      ++pos_;
    }
    return found;
  }

 private:
  static bool is_identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }

  std::string identifier() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && (is_identifier_char(text_[pos_]) || text_[pos_] == ':')) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    int line = 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + at, '\n'));
    throw UsageError(fmt::format("{}:{}: {}", file_, line, what));
  }

  int line_at(std::size_t at) const {
    return 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + at, '\n'));
  }

  // Skips one comment, string or character literal at pos_, if there is one.
  bool skip_comment_or_literal() {
    if (text_.compare(pos_, 2, "//") == 0) {
      pos_ = std::min(text_.find('\n', pos_), text_.size());
      return true;
    }
    if (text_.compare(pos_, 2, "/*") == 0) {
      std::size_t end = text_.find("*/", pos_ + 2);
      if (end == std::string::npos) fail(pos_, "a comment is never closed");
      pos_ = end + 2;
      return true;
    }
    // A quote right after a digit or letter is a digit separator (1'000).
    bool separator = text_[pos_] == '\'' && pos_ > 0 &&
                     std::isalnum(static_cast<unsigned char>(text_[pos_ - 1]));
    if (text_[pos_] == '"' || (text_[pos_] == '\'' && !separator)) {
      string_literal();
      return true;
    }
    if (text_.compare(pos_, 2, "R\"") == 0 &&
        (pos_ == 0 || !is_identifier_char(text_[pos_ - 1]))) {
      ++pos_;
      string_literal();
      return true;
    }
    return false;
  }

  // Reads the literal at pos_ (a raw one when preceded by R) and returns
  // its value, escapes decoded.
  std::string string_literal() {
    bool raw = pos_ > 0 && text_[pos_ - 1] == 'R' && text_[pos_] == '"';
    char quote = text_[pos_++];
    std::string value;
    if (raw) {
      std::size_t open = text_.find('(', pos_);
      if (open == std::string::npos) fail(pos_, "a raw string has no '('");
      std::string end = ")" + text_.substr(pos_, open - pos_) + "\"";
      std::size_t close = text_.find(end, open);
      if (close == std::string::npos) fail(pos_, "a raw string is never closed");
      value = text_.substr(open + 1, close - open - 1);
      pos_ = close + end.size();
      return value;
    }
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\n') fail(pos_, "a string literal runs past the end of its line");
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        default: value += e; break;  // \" \\ \' and the rest as themselves
      }
    }
    if (pos_ >= text_.size()) fail(pos_, "a literal is never closed");
    ++pos_;
    return value;
  }

  void skip_space() {
    for (;;) {
      while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (text_.compare(pos_, 2, "//") == 0 || text_.compare(pos_, 2, "/*") == 0) {
        skip_comment_or_literal();
        continue;
      }
      return;
    }
  }

  char next_significant() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  // A number inside `WORD(` ... `)`, for POINTS and doctest::timeout.
  std::string parenthesised_number(std::size_t at, const std::string& word) {
    if (next_significant() != '(') fail(at, word + " without '('");
    ++pos_;
    std::size_t close = text_.find(')', pos_);
    if (close == std::string::npos) fail(at, word + "( is never closed");
    std::string inside = text_.substr(pos_, close - pos_);
    pos_ = close + 1;
    inside.erase(std::remove_if(inside.begin(), inside.end(),
                                [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                 inside.end());
    return inside;
  }

  // TEST_CASE( "name" "more" * POINTS(n) * doctest::timeout(s) ... )
  DeclaredTest test_case(std::size_t start) {
    DeclaredTest test;
    test.file = file_;
    test.line = line_at(start);
    ++pos_;  // '('
    if (next_significant() != '"') fail(start, "TEST_CASE's name must be a string literal");
    while (next_significant() == '"') test.name += string_literal();
    std::optional<int> points;
    for (;;) {
      char c = next_significant();
      if (c == ')') {
        ++pos_;
        break;
      }
      if (c == '*') {
        ++pos_;
        continue;
      }
      if (!is_identifier_start(c)) fail(start, fmt::format("unexpected '{}' in TEST_CASE(...)", c));
      std::size_t at = pos_;
      std::string word = identifier();
      if (word == "POINTS") {
        if (points) fail(at, "POINTS given twice");
        points = points_value(at, parenthesised_number(at, word));
      } else if (word == "doctest::timeout") {
        test.declared_timeout = timeout_value(at, parenthesised_number(at, word));
      } else if (next_significant() == '(') {
        // Another decorator (doctest::skip, ...): read over its arguments.
        skip_balanced();
      }
    }
    if (!points) fail(start, "TEST_CASE(\"" + test.name + "\") has no POINTS(n)");
    test.points = *points;
    return test;
  }

  void skip_balanced() {
    int depth = 0;
    while (pos_ < text_.size()) {
      if (skip_comment_or_literal()) continue;
      char c = text_[pos_++];
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return;
    }
  }

  int points_value(std::size_t at, const std::string& digits) {
    bool whole = !digits.empty() && digits.size() <= 3 &&
                 digits.find_first_not_of("0123456789") == std::string::npos;
    int points = whole ? std::stoi(digits) : 0;
    if (points < 1 || points > max_points_per_test)
      fail(at, fmt::format("POINTS({}) must be a whole number from 1 to {}", digits,
                           max_points_per_test));
    return points;
  }

  double timeout_value(std::size_t at, const std::string& text) {
    char* end = nullptr;
    double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 ||
        seconds > 3600)
      fail(at, "doctest::timeout(" + text + ") is not a number of seconds in (0, 3600]");
    return seconds;
  }

  std::string text_;
  std::string file_;
  std::size_t pos_ = 0;
};

// The runner selects a test with doctest's --test-case filter, where these
// characters are wildcards or separators.
bool selectable_by_exact_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return name.find_first_of("*?,\\") == std::string::npos;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read the test source " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<DeclaredTest> declared_tests(const std::vector<std::string>& files) {
  std::vector<DeclaredTest> all;
  std::set<std::string> names;
  for (const std::string& file : files) {
    for (DeclaredTest& test : Scanner(read_file(file), file).tests()) {
      if (!selectable_by_exact_name(test.name))
        throw UsageError(fmt::format(
            "{}:{}: a test name must not be empty nor hold control characters, '*', '?', ',' "
            "or '\\'",
            test.file, test.line));
      if (!names.insert(test.name).second)
        throw UsageError(fmt::format("{}:{}: a second test case is named \"{}\"", test.file,
                                     test.line, test.name));
      all.push_back(std::move(test));
    }
  }
  return all;
}

namespace {

// The file names quoted in the folder's meson.build, in its order: a
// chapter lists its tests from the building blocks up, so that a broken
// block fails first in a test of its own.
std::vector<std::string> listed_order(const std::string& dir) {
  std::vector<std::string> names;
  std::string text;
  try {
    text = read_file(dir + "/meson.build");
  } catch (const std::exception&) {
    return names;
  }
  for (std::size_t at = text.find('\''); at != std::string::npos; at = text.find('\'', at)) {
    std::size_t end = text.find('\'', at + 1);
    if (end == std::string::npos) break;
    names.push_back(text.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return names;
}

}  // namespace

std::vector<std::string> test_sources_in(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".cpp")
      files.push_back(entry.path().string());
  // In the order meson.build lists them; any it does not list, last, by name.
  std::vector<std::string> listed = listed_order(dir);
  auto rank = [&listed](const std::string& path) {
    std::string name = path.substr(path.rfind('/') + 1);
    return static_cast<std::size_t>(std::find(listed.begin(), listed.end(), name) - listed.begin());
  };
  std::sort(files.begin(), files.end(), [&rank](const std::string& a, const std::string& b) {
    std::size_t ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  return files;
}

}  // namespace grader
