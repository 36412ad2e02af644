// Context: what a poll hands to the leaf it polls. Mirrors
// std::task::Context. A leaf that cannot finish yet clones the waker in it
// and keeps the clone; the Context itself lives only as long as the poll.
#pragma once

#include "rt/task/waker.hpp"

namespace rt {

class Context {
 public:
  explicit Context(const Waker& waker) : waker_(waker) {}
  const Waker& waker() const { return waker_; }

 private:
  const Waker& waker_;
};

}  // namespace rt
