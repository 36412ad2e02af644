// Helpers for chapter 10's tests: runtimes with timers, clock time read
// as a number, and a probe that counts its destruction.
//
// A paused clock (Builder::start_paused) stands still at the moment the
// runtime was built, which is also the time driver's tick 0: every time a
// test reads on it is exact, to the nanosecond, so tests compare them with
// ==, never with a tolerance. On the real clock a test may only check that
// a sleep ended at or after its deadline, never how soon after.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace ch10 {

using namespace std::chrono_literals;

// A current-thread runtime with timers whose clock starts paused.
inline rt::Runtime paused() { return rt::Builder::new_current_thread().enable_time().start_paused(true).build(); }

inline rt::Runtime current_thread() { return rt::Builder::new_current_thread().enable_time().build(); }

inline rt::Runtime multi_thread(std::size_t workers = 2) {
  return rt::Builder::new_multi_thread().worker_threads(workers).enable_time().build();
}

// Runs `body(runtime)` on a fresh current-thread runtime with timers (on
// the real clock), then on a fresh multi-thread one with two workers.
template <class Body>
void on_each_flavour(Body body) {
  {
    INFO("on the current-thread runtime");
    rt::Runtime runtime = current_thread();
    body(runtime);
  }
  {
    INFO("on a multi-thread runtime with 2 workers");
    rt::Runtime runtime = multi_thread();
    body(runtime);
  }
}

// A duration of clock time in microseconds: a number a failed check shows.
inline std::int64_t us(rt::time::Duration duration) {
  return std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
}

// Counts, in `*destroyed`, the destruction of the one that lives in a
// coroutine frame (moved-from copies do not count).
class Probe {
 public:
  explicit Probe(std::atomic<int>& destroyed) : destroyed_(&destroyed) {}
  Probe(Probe&& other) noexcept : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  Probe& operator=(Probe&&) = delete;
  ~Probe() {
    if (destroyed_) destroyed_->fetch_add(1);
  }

 private:
  std::atomic<int>* destroyed_;
};

}  // namespace ch10
