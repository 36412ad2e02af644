// Bounded capture of a child's output; see output_capture.hpp.
#include "output_capture.hpp"

#include <algorithm>

namespace grader {

void OutputCapture::append(const char* data, std::size_t size) {
  std::size_t into_head = std::min(size, head_limit_ - head_.size());
  head_.append(data, into_head);
  tail_.append(data + into_head, size - into_head);
  // Trimmed only once it is twice too long, so trimming stays cheap.
  if (tail_.size() > 2 * tail_limit_) {
    std::size_t excess = tail_.size() - tail_limit_;
    dropped_ += excess;
    tail_.erase(0, excess);
  }
}

std::string OutputCapture::text() const {
  std::size_t excess = tail_.size() > tail_limit_ ? tail_.size() - tail_limit_ : 0;
  std::size_t dropped = dropped_ + excess;
  if (dropped == 0) return head_ + tail_;
  return head_ + "\n[... " + std::to_string(dropped) + " bytes of output not kept ...]\n" +
         tail_.substr(excess);
}

}  // namespace grader
