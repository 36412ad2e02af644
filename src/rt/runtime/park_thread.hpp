//@ file threads..
// ParkThread: what a thread that blocks on a future sleeps on, and the
// waker of that future. Mirrors Tokio's runtime/park.rs (ParkThread and
// CachedParkThread::block_on).
//
// The future block_on drives is not a task: it is polled on the caller's
// thread, and only once its waker says it was woken. Every block_on call
// has a parker of its own, so that two threads blocking on one runtime
// never take each other's wake-ups.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "rt/scheduler/park.hpp"
#include "rt/task/waker.hpp"

namespace rt::detail {

class ParkThread {
 public:
//@ chapters ..coop
  ParkThread();
//@ else
  // `driver`: what the parker sleeps in when it is free (rt/scheduler/park.hpp).
  explicit ParkThread(Driver* driver = nullptr);
//@ end
  ParkThread(const ParkThread&) = delete;
  ParkThread& operator=(const ParkThread&) = delete;

  // The waker to poll the blocked-on future with. A leaf may keep a clone
  // of it as long as it likes, even after block_on has returned.
  const Waker& waker() const { return waker_; }
  // The parker that waker unparks.
  const std::shared_ptr<Parker>& parker() const { return parker_; }

  // True once after each wake (and before the first poll, which needs none).
  bool take_woken();

  // Sleeps until woken (or unparked by the scheduler).
  void park() { parker_->park(); }

 private:
  struct Signal;
  std::shared_ptr<Parker> parker_;
  Signal* signal_;  // owned by the references of waker_ and its clones
  Waker waker_;
};

}  // namespace rt::detail
