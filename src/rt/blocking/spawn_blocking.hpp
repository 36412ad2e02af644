//@ file blocking..
// rt::spawn_blocking: runs a function that blocks on the runtime's
// blocking pool, and returns a JoinHandle like a task's. Mirrors
// tokio::task::spawn_blocking (runtime/blocking/{task,schedule}.rs).
//
//   rt::JoinHandle<std::string> read = rt::spawn_blocking([] { return slurp("notes.txt"); });
//   std::string text = co_await read;   // the task waits; no worker blocks
//
// The function becomes a task whose one poll calls it: its result, its
// exception (a JoinError) and abort (before it starts, it never runs) are
// those of any task. It runs with no coop budget, and with the runtime
// current, so rt::spawn works inside it.
#pragma once

#include <concepts>
#include <memory>
#include <type_traits>
#include <utility>

#include "rt/blocking/pool.hpp"
#include "rt/runtime/context.hpp"
#include "rt/task/cell.hpp"
#include "rt/task/join_handle.hpp"
#include "rt/task/task.hpp"

namespace rt::detail {

// The job's coroutine: it never suspends, so it starts and ends on the
// pool thread that polls it.
template <class F, class R = std::invoke_result_t<F&>>
Task<R> call_blocking(std::shared_ptr<SchedulerHandle> runtime, F f) {
  SetCurrentGuard current(std::move(runtime));
  if constexpr (std::is_void_v<R>) {
    f();
    co_return;
  } else {
    co_return f();
  }
}

template <std::invocable F>
auto spawn_blocking_on(const std::shared_ptr<SchedulerHandle>& runtime, F f, bool mandatory = false) {
  using R = std::invoke_result_t<F&>;
  std::shared_ptr<BlockingPool> pool = runtime->blocking_pool();
  // Three references, as a spawned task's: the JoinHandle's, the
  // Notified the pool's poll takes, and the one the pool drops after it
  // (where a task's would be the owned list's).
  Cell<R>* cell = Cell<R>::create(pool, call_blocking(runtime, std::move(f)));
  JoinHandle<R> handle(cell);  // first, so that its reference goes if spawn throws
  pool->spawn(cell, mandatory);
  return handle;
}

}  // namespace rt::detail

namespace rt {

// Runs `f` on the current runtime's blocking pool.
template <std::invocable F>
auto spawn_blocking(F f) {
  return detail::spawn_blocking_on(detail::current_handle(), std::move(f));
}

}  // namespace rt
