//@ file threads..
// The runtime context's checks, compiled once per runtime; see context.hpp.
#include "rt/runtime/context.hpp"

#include <stdexcept>

namespace rt::detail {

const std::shared_ptr<SchedulerHandle>& current_handle() {
  if (!runtime_context.handle) {
    throw std::logic_error(
        "there is no reactor running, must be called from the context of a runtime");
  }
  return runtime_context.handle;
}

EnterRuntimeGuard::EnterRuntimeGuard() {
  if (runtime_context.in_runtime) {
    throw std::logic_error(
        "Cannot start a runtime from within a runtime. This happens because a function "
        "(like `block_on`) attempted to block the current thread while the thread is being "
        "used to drive asynchronous tasks.");
  }
  runtime_context.in_runtime = true;
}

}  // namespace rt::detail
