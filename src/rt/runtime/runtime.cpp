//@ file threads..
// The Runtime's non-template half, compiled once per runtime; see
// rt/runtime.hpp. Mirrors tokio::runtime::Runtime's drop. What dropping it
// shuts down grows with the chapters: shutdown.cpp.
#include "rt/runtime.hpp"

#include "rt/scheduler/current_thread.hpp"

namespace rt {

Runtime::Runtime() : Runtime(std::make_shared<detail::CurrentThread>()) {}

Runtime& Runtime::operator=(Runtime&& other) noexcept {
  if (this != &other) {
    shutdown();
    handle_ = std::move(other.handle_);
  }
  return *this;
}

Runtime::~Runtime() { shutdown(); }

}  // namespace rt
