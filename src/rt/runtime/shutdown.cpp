//@ file threads..coop
// Runtime::shutdown, which its destructor calls: the scheduler stops,
// cancelling every task. Mirrors the shutdown in Tokio's Runtime::drop.
#include "rt/runtime.hpp"

namespace rt {

void Runtime::shutdown() {
  if (handle_.scheduler_) std::exchange(handle_.scheduler_, nullptr)->shutdown();
}

}  // namespace rt
