// Runtime::shutdown, which its destructor, shutdown_timeout and
// shutdown_background call: the scheduler stops, cancelling every task,
// then the driver, failing every socket's waits, then the blocking pool,
// waiting for its threads at most the timeout. Mirrors Tokio's
// Runtime::drop and shutdown_timeout.
#include "rt/runtime.hpp"

namespace rt {

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
