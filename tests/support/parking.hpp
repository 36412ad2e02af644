// Helpers for the multi-thread runtime's tests (chapter 04 on): waiting
// until workers sleep, and installing the hook that acts at the moment a
// worker is about to sleep (rt::detail::before_worker_parks).
#pragma once

#include <cstddef>
#include <thread>

#include "rt/rt.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"
#include "scoped_hook.hpp"

namespace rt_test {

// Blocks until `workers` workers are listed as asleep. Not a sleep: it
// spins, yielding, on the runtime's own count (the grader's timeout bounds
// it). Takes the metrics, so that a task can ask of its own runtime.
inline void wait_until_idle(const rt::RuntimeMetrics& metrics, std::size_t workers) {
  while (metrics.num_idle_workers() < workers) std::this_thread::yield();
}

// Installs `hook` as rt::detail::before_worker_parks for one test, and
// always removes it.
class ParkHook : public ScopedHook<void (*)(std::size_t)> {
 public:
  explicit ParkHook(void (*hook)(std::size_t)) : ScopedHook(rt::detail::before_worker_parks, hook) {}
};

}  // namespace rt_test
