// A connection's parse-and-run loop; see session.hpp.
#include "capstone/session.hpp"

#include <algorithm>
#include <cstring>

namespace redis {

namespace {

// A buffer grown for one huge request or reply goes back to this size
// once empty, so that a connection does not keep it.
constexpr std::size_t keep_at_most = 1024 * 1024;

}  // namespace

Session::Session(Shared& shared, std::function<void()> wake)
    : client_(shared, std::move(wake)), input_(read_size) {}

std::span<char> Session::read_buffer() {
  if (input_.size() - end_ < read_size / 4) {
    // Little room at the end: move the unparsed bytes to the front (the
    // parser keeps offsets from the request's start, not pointers), then
    // grow if the request in progress needs more.
    std::size_t pending = end_ - start_;
    if (start_ > 0) std::memmove(input_.data(), input_.data() + start_, pending);
    start_ = 0;
    end_ = pending;
    std::size_t wanted = std::max(parser_.wanted(), end_ + read_size / 4);
    if (wanted > input_.size()) input_.resize(std::max(wanted, 2 * input_.size()));
  }
  return {input_.data() + end_, input_.size() - end_};
}

void Session::received(std::size_t n, Instant now) {
  end_ += n;
  while (!closing_ && end_ > start_) {
    resp::Status status = parser_.parse({input_.data() + start_, end_ - start_});
    if (status == resp::Status::incomplete) break;
    if (status == resp::Status::error) {
      resp::error(output_, "ERR " + std::string(parser_.error()));
      closing_ = true;
      break;
    }
    // The arguments point into input_, which stays where it is until the
    // next read_buffer().
    if (!parser_.args().empty()) execute(client_, parser_.args(), now, output_);
    start_ += parser_.consumed();
    if (client_.quit) closing_ = true;
  }
  if (start_ == end_) {
    start_ = end_ = 0;
    if (input_.size() > keep_at_most) {
      input_.resize(read_size);
      input_.shrink_to_fit();
    }
  }
  if (client_.posted) take_messages();
}

bool Session::take_messages() {
  bool any = client_.subscriber.take(output_);
  if (client_.subscriber.overflowed()) closing_ = true;  // its messages are lost: Redis closes it too
  return any;
}

void Session::written() {
  output_.clear();
  if (output_.capacity() > keep_at_most) output_.shrink_to_fit();
}

}  // namespace redis
