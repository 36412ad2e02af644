// A C++ source file reduced to tokens the way the compiler's first phases
// see it: line splices (backslash-newline) joined, comments removed,
// string and character literals (raw strings included) each one token
// whose text is their content. The integrity scan matches on these tokens,
// never on physical lines, so that a splice, a comment or a literal can
// neither hide code from it nor make honest code look like cheating.
// Linear in the file's size, no recursion: a megabyte-long line is just
// more tokens.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct Token {
  enum Kind { identifier, number, string, character, punctuation } kind;
  std::string text;  // a literal's content (quotes and prefix removed)
  int line;          // the physical line it starts on, from 1
  bool starts_line;  // first token of its logical line (a directive's '#')
};

std::vector<Token> tokenize(const std::string& source);

}  // namespace grader
