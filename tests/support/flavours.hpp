// The runtime flavours a test runs on. A test that holds on any runtime
// writes its body once and runs it on every flavour the runtime under test
// has:
//
//   TEST_CASE("spawned tasks run to completion" * POINTS(2)) {
//     rt_test::on_each_runtime([](rt::Runtime& runtime) { ... });
//   }
//
// Up to chapter 03 a runtime has one flavour, current-thread. From chapter
// 04 on (the runtime's rt/rt.hpp defines RT_HAS_MULTI_THREAD) the same body
// also runs on a multi-thread runtime, so every earlier chapter's tests
// keep meaning the same on every later runtime. A test that states what
// only one flavour guarantees (spawn order, say) says so with
// on_current_thread or on_multi_thread.
#pragma once

#include <cstddef>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace rt_test {

// Runs `body(runtime)` on a fresh current-thread runtime.
template <class Body>
void on_current_thread(Body body) {
  INFO("on the current-thread runtime");
#ifdef RT_HAS_MULTI_THREAD
  rt::Runtime runtime = rt::Builder::new_current_thread().build();
#else
  rt::Runtime runtime;
#endif
  body(runtime);
}

#ifdef RT_HAS_MULTI_THREAD
// Runs `body(runtime)` on a fresh multi-thread runtime of `workers` workers.
template <class Body>
void on_multi_thread(Body body, std::size_t workers = 2) {
  INFO("on a multi-thread runtime with " << workers << " workers");
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
  body(runtime);
}
#endif

// Runs `body(runtime)` on every flavour this runtime has, one after another.
template <class Body>
void on_each_runtime(Body body) {
  on_current_thread(body);
#ifdef RT_HAS_MULTI_THREAD
  on_multi_thread(body);
#endif
}

}  // namespace rt_test
