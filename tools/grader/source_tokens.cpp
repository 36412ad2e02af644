// The tokenizer of the integrity scan; see source_tokens.hpp.
#include "source_tokens.hpp"

#include <cstdint>

namespace grader {

namespace {

// Phases 1 and 2: every line end (LF, CR LF, or a CR alone, which the
// compiler takes for one too) made a newline, then backslash-newline
// removed; `lines[i]` is the physical line of the spliced text's
// character i.
struct Spliced {
  std::string text;
  std::vector<std::uint32_t> lines;
};

std::string with_newlines(const std::string& source) {
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] != '\r') out.push_back(source[i]);
    else if (i + 1 >= source.size() || source[i + 1] != '\n') out.push_back('\n');
  }
  return out;
}

Spliced splice(const std::string& raw) {
  std::string source = with_newlines(raw);
  Spliced out;
  out.text.reserve(source.size());
  out.lines.reserve(source.size());
  std::uint32_t line = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (c == '\\' && i + 1 < source.size() && source[i + 1] == '\n') { ++i; ++line; continue; }
    out.text.push_back(c);
    out.lines.push_back(line);
    if (c == '\n') ++line;
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One escape sequence of a literal, from text[i] (just after the
// backslash): appends what it stands for and returns where it ends, so
// that "/pr\x6fc" is read as the compiler reads it. A code point above
// 0x7f is kept as one byte of its low bits: only ASCII names are matched.
std::size_t unescape(const std::string& text, std::size_t i, std::string& out) {
  char c = text[i];
  static const std::string simple = "ntrabfv";
  static const std::string meaning = "\n\t\r\a\b\f\v";
  if (auto at = simple.find(c); at != std::string::npos) {
    out.push_back(meaning[at]);
    return i + 1;
  }
  int base = (c == 'x' || c == 'u' || c == 'U') ? 16 : (c >= '0' && c <= '7') ? 8 : 0;
  if (base == 0) {  // \\ \" \' \? and any other: the character itself
    out.push_back(c);
    return i + 1;
  }
  std::size_t j = base == 8 ? i : i + 1;
  std::size_t most = c == 'u' ? 4 : c == 'U' ? 8 : base == 8 ? 3 : std::string::npos;
  unsigned long value = 0;
  std::size_t digits = 0;
  for (; j < text.size() && digits < most; ++j, ++digits) {
    int d = hex_digit(text[j]);
    if (d < 0 || d >= base) break;
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  out.push_back(static_cast<char>(value & 0xff));
  return j;
}

bool identifier_start(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u == '$' || u >= 0x80;
}
bool identifier_char(char c) { return identifier_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

bool encoding_prefix(const std::string& word) {
  return word == "u8" || word == "u" || word == "U" || word == "L";
}
bool raw_prefix(const std::string& word) {
  return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
}

class Lexer {
 public:
  explicit Lexer(const std::string& source) : s_(splice(source)), t_(s_.text) {}

  std::vector<Token> run() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\n') { line_start_ = true; ++i_; continue; }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { ++i_; continue; }
      if (c == '/' && peek(1) == '/') { skip_line_comment(); continue; }
      if (c == '/' && peek(1) == '*') { skip_block_comment(); continue; }
      std::size_t start = i_;
      if (identifier_start(c)) {
        while (i_ < t_.size() && identifier_char(t_[i_])) ++i_;
        std::string word = t_.substr(start, i_ - start);
        if (raw_prefix(word) && peek(0) == '"') { raw_string(start); continue; }
        if (encoding_prefix(word) && (peek(0) == '"' || peek(0) == '\'')) {
          quoted(start, t_[i_]);
          continue;
        }
        emit(Token::identifier, std::move(word), start);
      } else if (digit(c) || (c == '.' && digit(peek(1)))) {
        number(start);
      } else if (c == '"' || c == '\'') {
        quoted(start, c);
      } else {
        punctuation(start);
      }
    }
    return std::move(tokens_);
  }

 private:
  char peek(std::size_t ahead) const {
    return i_ + ahead < t_.size() ? t_[i_ + ahead] : '\0';
  }

  void emit(Token::Kind kind, std::string text, std::size_t start) {
    tokens_.push_back({kind, std::move(text), static_cast<int>(s_.lines[start]), line_start_});
    line_start_ = false;
  }

  void skip_line_comment() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
  }

  void skip_block_comment() {
    std::size_t end = t_.find("*/", i_ + 2);
    i_ = end == std::string::npos ? t_.size() : end + 2;
  }

  // pp-number: digits, letters, '.', digit separators and exponent signs.
  void number(std::size_t start) {
    ++i_;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if ((c == '+' || c == '-') &&
          (t_[i_ - 1] == 'e' || t_[i_ - 1] == 'E' || t_[i_ - 1] == 'p' || t_[i_ - 1] == 'P'))
        ++i_;
      else if (identifier_char(c) || c == '.' || (c == '\'' && identifier_char(peek(1))))
        ++i_;
      else
        break;
    }
    emit(Token::number, t_.substr(start, i_ - start), start);
  }

  // "..." or '...' from t_[i_]; an unterminated one ends at the line's end,
  // as the compiler's error would.
  void quoted(std::size_t start, char quote) {
    ++i_;
    std::string content;
    while (i_ < t_.size() && t_[i_] != quote && t_[i_] != '\n') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n')
        i_ = unescape(t_, i_ + 1, content);
      else
        content.push_back(t_[i_++]);
    }
    if (i_ < t_.size() && t_[i_] == quote) ++i_;
    emit(quote == '"' ? Token::string : Token::character, std::move(content), start);
  }

  // R"delim( ... )delim": the content ends at the first )delim".
  void raw_string(std::size_t start) {
    ++i_;  // the opening quote
    std::size_t open = t_.find('(', i_);
    if (open == std::string::npos || open - i_ > 16) {  // not a raw string: a quote alone
      emit(Token::punctuation, "\"", start);
      return;
    }
    std::string terminator = ")" + t_.substr(i_, open - i_) + "\"";
    std::size_t end = t_.find(terminator, open + 1);
    std::size_t content_end = end == std::string::npos ? t_.size() : end;
    std::string content = t_.substr(open + 1, content_end - open - 1);
    i_ = end == std::string::npos ? t_.size() : end + terminator.size();
    emit(Token::string, std::move(content), start);
  }

  // The punctuators the scan looks at (::, ->, and the digraph %: for #)
  // as one token each; any other character alone.
  void punctuation(std::size_t start) {
    char c = t_[i_], next = peek(1);
    std::string text(1, c);
    if ((c == ':' && next == ':') || (c == '-' && next == '>') || (c == '&' && next == '&')) {
      text.push_back(next);
      ++i_;
    } else if (c == '%' && next == ':') {
      text = "#";
      ++i_;
    }
    ++i_;
    emit(Token::punctuation, std::move(text), start);
  }

  Spliced s_;
  const std::string& t_;
  std::size_t i_ = 0;
  bool line_start_ = true;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(const std::string& source) { return Lexer(source).run(); }

}  // namespace grader
