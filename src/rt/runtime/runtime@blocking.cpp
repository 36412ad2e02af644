// The Runtime's non-template half, compiled once per runtime; see
// rt/runtime.hpp. Mirrors tokio::runtime::Runtime's drop and shutdown.
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

void Runtime::shutdown(std::optional<std::chrono::nanoseconds> timeout) {
  if (!handle_.scheduler_) return;
  std::shared_ptr<detail::SchedulerHandle> scheduler = std::exchange(handle_.scheduler_, nullptr);
  scheduler->shutdown();         // no task runs any more
  scheduler->shutdown_driver();  // and no socket waits any more
  scheduler->shutdown_blocking_pool(timeout);  // and no blocking job, but those past the timeout
//@ chapters capstone..
  scheduler->instruments().finish();  // the trace, once no worker runs
//@ end
}

}  // namespace rt
