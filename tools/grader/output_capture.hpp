// Keeps what a child process prints within bounds: the first bytes (where
// the story starts) and the last bytes (where crashes and sanitizer reports
// end up), counting what was dropped in between. A test printing gigabytes
// is drained, never stored.
#pragma once

#include <cstddef>
#include <string>

namespace grader {

class OutputCapture {
 public:
  OutputCapture(std::size_t head_limit, std::size_t tail_limit)
      : head_limit_(head_limit), tail_limit_(tail_limit) {}

  void append(const char* data, std::size_t size);

  // Head, a note of how much was dropped, then tail.
  std::string text() const;

 private:
  std::size_t head_limit_;
  std::size_t tail_limit_;
  std::string head_;
  std::string tail_;
  std::size_t dropped_ = 0;
};

}  // namespace grader
