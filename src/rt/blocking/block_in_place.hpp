//@ file blocking..
// rt::block_in_place: runs a function that blocks right here, on a
// multi-thread worker, after handing the worker's queues to another
// thread, so that the worker's other tasks run on meanwhile. Mirrors
// tokio::task::block_in_place (runtime/scheduler/multi_thread/worker.rs).
//
//   std::string text = rt::block_in_place([] { return slurp("notes.txt"); });
//
// Unlike spawn_blocking, the function borrows the task's locals and needs
// no 'static captures; but the task itself waits, and so does whatever it
// was to do next. The function runs with no coop budget and outside the
// runtime, so it may block_on a Handle. On a current-thread runtime there
// is no other thread to hand the queues to: it throws Tokio's message.
// Outside any runtime it just calls the function.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "rt/scheduler/handle.hpp"

namespace rt::detail {

// The scope of a blocking section on this thread: the runtime left, the
// budget set aside, the worker's core handed off; all undone at its end.
class BlockingSection {
 public:
  BlockingSection();
  ~BlockingSection();
  BlockingSection(const BlockingSection&) = delete;
  BlockingSection& operator=(const BlockingSection&) = delete;

 private:
  std::shared_ptr<SchedulerHandle> runtime_;  // set when this thread was driving one
  std::optional<std::size_t> worker_;         // the worker whose core was handed off
  std::optional<std::uint8_t> budget_;
};

}  // namespace rt::detail

namespace rt {

template <std::invocable F>
decltype(auto) block_in_place(F&& f) {
  detail::BlockingSection section;
  return std::invoke(std::forward<F>(f));
}

}  // namespace rt
