//@ file blocking..
// The builder's options for the blocking pool, compiled once per runtime;
// see builder.hpp. Tokio's Builder::max_blocking_threads and
// thread_keep_alive.
#include <stdexcept>

#include "rt/blocking/pool.hpp"
#include "rt/runtime/builder.hpp"
#include "rt/scheduler/handle.hpp"

namespace rt {

Builder& Builder::max_blocking_threads(std::size_t count) {
  if (count == 0) throw std::invalid_argument("max_blocking_threads must be greater than 0");
  max_blocking_threads_ = count;
  return *this;
}

Builder& Builder::thread_keep_alive(std::chrono::nanoseconds duration) {
  thread_keep_alive_ = duration;
  return *this;
}

detail::BlockingConfig Builder::blocking_config(std::size_t workers) const {
  // The worker loops are the pool's jobs too: Tokio's cap is
  // max_blocking_threads + worker_threads.
  return {max_blocking_threads_ + workers, thread_keep_alive_, thread_name_};
}

void Builder::set_up(detail::SchedulerHandle& scheduler, bool current_thread, std::size_t workers) const {
  // A current-thread runtime runs no loop on the pool.
  scheduler.set_blocking_pool(blocking_config(current_thread ? 0 : workers));
//@ chapters capstone..
  scheduler.set_instruments(instruments_config(current_thread), workers);
//@ end
}

}  // namespace rt
