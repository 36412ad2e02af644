// The runtime flavours a test runs on. A test that holds on any runtime
// writes its body once and runs it on every flavour the runtime under test
// has:
//
//   TEST_CASE("spawned tasks run to completion" * POINTS(2)) {
//     rt_test::on_each_runtime([](rt::Runtime& runtime) { ... });
//   }
//
// Up to chapter 03 a runtime has one flavour, current-thread. From chapter
// 04 on (rt/runtime.hpp defines RT_HAS_MULTI_THREAD) the same body also
// runs on a multi-thread runtime, so every earlier chapter's tests
// keep meaning the same on every later runtime. A test that states what
// only one flavour guarantees (spawn order, say) says so with
// on_current_thread or on_multi_thread.
#pragma once

#include <cstddef>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace rt_test {

// What a test does after the runtime is gone: nothing, unless it says.
struct NoAfter {
  void operator()() const {}
};

// Runs `body(runtime)` on a fresh current-thread runtime, then, once the
// runtime has shut down, `after()`.
template <class Body, class After = NoAfter>
void on_current_thread(Body body, After after = {}) {
  INFO("on the current-thread runtime");
  {
#ifdef RT_HAS_MULTI_THREAD
    rt::Runtime runtime = rt::Builder::new_current_thread().build();
#else
    rt::Runtime runtime;
#endif
    body(runtime);
  }
  after();
}

#ifdef RT_HAS_MULTI_THREAD
// Runs `body(runtime)` on a fresh multi-thread runtime of `workers` workers,
// then, once the runtime has shut down, `after()`.
template <class Body, class After = NoAfter>
void on_multi_thread(Body body, std::size_t workers = 2, After after = {}) {
  INFO("on a multi-thread runtime with " << workers << " workers");
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
    body(runtime);
  }
  after();
}
#endif

// Runs `body(runtime)` on every flavour this runtime has, one after another;
// after each, once that runtime has shut down, `after()` (for what a test
// checks of a runtime's shutdown).
template <class Body, class After = NoAfter>
void on_each_runtime(Body body, After after = {}) {
  on_current_thread(body, after);
#ifdef RT_HAS_MULTI_THREAD
  on_multi_thread(body, 2, after);
#endif
}

}  // namespace rt_test
