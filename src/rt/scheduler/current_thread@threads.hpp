// CurrentThread: a scheduler that runs every task on a thread that called
// block_on. Mirrors Tokio's current-thread scheduler
// (runtime/scheduler/current_thread/mod.rs), without its drivers.
//
// Its state is the scheduler handle: tasks, wakers and rt::Handles reach
// it from any thread. Tasks run only inside block_on. Several threads may
// block_on at once, as in Tokio: one of them holds the core (runs the
// tasks); the others only poll their own future, and take the core over
// when it is released.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "rt/scheduler/handle.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/park.hpp"

namespace rt::detail {

class CurrentThread final : public SchedulerHandle {
 public:
//@ chapters reactor..
  // The driver the thread holding the core parks in (none without I/O),
  // and how many task polls come between two looks at it.
  explicit CurrentThread(const DriverConfig& driver = {}, std::uint32_t event_interval = 61);

//@ end
  void schedule(Header* task) override;
  void block_on(Poller& root) override;
  void shutdown() override;

  std::size_t num_workers() const override { return 1; }
  std::size_t global_queue_depth() const override { return queue_.len(); }
  std::uint64_t global_queue_lock_waits() const override { return queue_.lock_waits(); }

 private:
  // Takes the core if it is free (then `parker` is what schedule()
  // unparks); otherwise lists `parker`, to be unparked when it is released.
  bool try_take_core(const std::shared_ptr<Parker>& parker);
  void release_core();
//@ chapters reactor..
  // Every event_interval polls: the driver's events, without sleeping.
  void maintenance();
//@ end

  Inject queue_;  // closed at shutdown: later wakes are dropped
  std::mutex core_mutex_;
  bool core_taken_ = false;
  std::shared_ptr<Parker> core_parker_;  // the parker of the thread holding the core
  std::vector<std::shared_ptr<Parker>> waiting_;  // block_on calls waiting for the core
//@ chapters reactor..
  std::uint32_t event_interval_;
  std::uint32_t tick_ = 0;  // task polls; only the thread holding the core
//@ end
};

}  // namespace rt::detail
