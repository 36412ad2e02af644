//@ file threads..
// The runtime context of a thread: which scheduler rt::spawn reaches from
// here, and whether this thread already drives a runtime. Mirrors Tokio's
// runtime/context.rs (the CONTEXT thread-local holding the current
// scheduler handle) and runtime/context/runtime.rs (entering a runtime).
//
// The context holds a shared handle, never a raw pointer to a Runtime: a
// Runtime can be moved or destroyed while code on some thread still
// spawns, and the handle stays valid (it refuses work once shut down).
#pragma once

#include <memory>
#include <utility>

#include "rt/scheduler/handle.hpp"

namespace rt::detail {

struct RuntimeContext {
  std::shared_ptr<SchedulerHandle> handle;  // what rt::spawn uses here
  bool in_runtime = false;  // a block_on or a worker loop runs on this thread
};

inline thread_local RuntimeContext runtime_context;

// The current handle; throws Tokio's message when there is none.
const std::shared_ptr<SchedulerHandle>& current_handle();

// Makes `handle` current for a scope (block_on, a worker thread, or
// Handle::enter), then restores the one before.
class SetCurrentGuard {
 public:
  explicit SetCurrentGuard(std::shared_ptr<SchedulerHandle> handle)
      : previous_(std::exchange(runtime_context.handle, std::move(handle))) {}
  ~SetCurrentGuard() { runtime_context.handle = std::move(previous_); }
  SetCurrentGuard(const SetCurrentGuard&) = delete;
  SetCurrentGuard& operator=(const SetCurrentGuard&) = delete;

 private:
  std::shared_ptr<SchedulerHandle> previous_;
};

// Marks the thread as driving a runtime for a scope. Blocking on a runtime
// from a thread that drives one would stall it: that throws Tokio's
// message instead.
class EnterRuntimeGuard {
 public:
  EnterRuntimeGuard();
  ~EnterRuntimeGuard() { runtime_context.in_runtime = false; }
  EnterRuntimeGuard(const EnterRuntimeGuard&) = delete;
  EnterRuntimeGuard& operator=(const EnterRuntimeGuard&) = delete;
};

}  // namespace rt::detail
