// Runtime::shutdown, which its destructor calls: the scheduler stops,
// cancelling every task, then the driver, failing every socket's waits.
// Mirrors the shutdown in Tokio's Runtime::drop.
#include "rt/runtime.hpp"

namespace rt {

void Runtime::shutdown() {
  if (!handle_.scheduler_) return;
  std::shared_ptr<detail::SchedulerHandle> scheduler = std::exchange(handle_.scheduler_, nullptr);
  scheduler->shutdown();         // no task runs any more
  scheduler->shutdown_driver();  // and no socket waits any more
}

}  // namespace rt
