// The runtime a workload runs on, in the flavour asked for. Chapters 01-03
// have one flavour (rt::Runtime runs everything on the thread that calls
// block_on); chapter 04 adds rt::Builder and the multi-thread flavour.
// What a runtime can run is read from the runtime itself: its rt/rt.hpp
// defines RT_HAS_MULTI_THREAD from chapter 04 on, RT_HAS_IO (enable_io and
// rt::net) from chapter 09 on.
#pragma once

#include <memory>
#include <vector>

#include "../workloads.hpp"
#include "rt/rt.hpp"

namespace bench::course {

inline std::unique_ptr<rt::Runtime> make_runtime(Flavour flavour, int workers) {
#ifdef RT_HAS_MULTI_THREAD
  // new T(prvalue) constructs in place: a Runtime need not be movable.
  if (flavour == Flavour::multi_thread) {
    return std::unique_ptr<rt::Runtime>(
        new rt::Runtime(rt::Builder::new_multi_thread().worker_threads(workers).build()));
  }
  return std::unique_ptr<rt::Runtime>(new rt::Runtime(rt::Builder::new_current_thread().build()));
#else
  (void)workers;
  if (flavour == Flavour::multi_thread) {
    throw CannotRun("the multi-thread flavour needs chapter 04's rt::Builder");
  }
  return std::make_unique<rt::Runtime>();
#endif
}

#ifdef RT_HAS_IO
// The same, with the I/O driver on: for the workloads that use sockets.
inline std::unique_ptr<rt::Runtime> make_io_runtime(Flavour flavour, int workers) {
  if (flavour == Flavour::multi_thread) {
    return std::unique_ptr<rt::Runtime>(
        new rt::Runtime(rt::Builder::new_multi_thread().worker_threads(workers).enable_io().build()));
  }
  return std::unique_ptr<rt::Runtime>(new rt::Runtime(rt::Builder::new_current_thread().enable_io().build()));
}
#endif

// Awaits every handle: how the current-thread benchmarks wait for their tasks.
inline rt::Task<> join_all(std::vector<rt::JoinHandle<void>>& handles) {
  for (auto& handle : handles) co_await handle;
}

}  // namespace bench::course
