//@ file blocking..
// The blocking section's scope, compiled once per runtime; see
// block_in_place.hpp. What the worker does with its core is in
// rt/scheduler/multi_thread/block_in_place.cpp.
#include "rt/blocking/block_in_place.hpp"

#include "rt/runtime/context.hpp"
#include "rt/task/coop.hpp"

namespace rt::detail {

BlockingSection::BlockingSection() {
  // Not driving a runtime here (a plain thread, a blocking pool thread):
  // blocking is what this thread is for.
  if (!runtime_context.in_runtime || !runtime_context.handle) return;
  // A worker hands its core off; a current-thread runtime throws.
  worker_ = runtime_context.handle->enter_blocking_section();
  runtime_ = runtime_context.handle;
  // The function runs outside the runtime (it may block_on, as Tokio's
  // exit_runtime allows) and unconstrained (coop::stop).
  runtime_context.in_runtime = false;
  //@ mutant blocking section_keeps_budget: the function runs on what is left of the task's budget
  budget_ = std::exchange(coop::detail::budget, std::nullopt);
  //@ instead
  budget_ = coop::detail::budget;
  //@ end
}

BlockingSection::~BlockingSection() {
  if (!runtime_) return;
  coop::detail::budget = budget_;
  runtime_context.in_runtime = true;
  if (worker_) runtime_->leave_blocking_section(*worker_);
}

}  // namespace rt::detail
