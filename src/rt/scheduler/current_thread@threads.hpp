// CurrentThread: a scheduler that runs every task on a thread that called
// block_on. Mirrors Tokio's current-thread scheduler
// (runtime/scheduler/current_thread/mod.rs), without its drivers.
//
// Its state is the scheduler handle: tasks, wakers and rt::Handles reach
// it from any thread. Tasks run only inside block_on. Several threads may
// block_on at once, as in Tokio: one of them holds the core (runs the
// tasks); the others only poll their own future, and take the core over
// when it is released.
//
// Two run queues, as in Tokio: the core's local queue, for the tasks the
// thread holding the core spawns and wakes, touched by that thread only
// and so without a lock; and the injection queue, behind its mutex, for
// the tasks every other thread spawns and wakes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "rt/loom.hpp"
#include "rt/scheduler/handle.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/park.hpp"

namespace rt::detail {

class CurrentThread final : public SchedulerHandle {
 public:
//@ chapters ..coop
  // How many task polls come between two looks at block_on's future
  // (Tokio's event_interval).
  explicit CurrentThread(std::uint32_t event_interval = 61) : event_interval_(event_interval) {}
//@ else
  // The driver the thread holding the core parks in (none without I/O),
  // and how many task polls come between two looks at it and at block_on's
  // future (Tokio's event_interval).
  explicit CurrentThread(const DriverConfig& driver = {}, std::uint32_t event_interval = 61);

 private:
  // Every event_interval polls: the driver's events, without sleeping.
  void maintenance();

 public:
//@ end

  void schedule(Header* task) override;
  void block_on(Poller& root) override;
  void shutdown() override;

  std::size_t num_workers() const override { return 1; }
  std::size_t global_queue_depth() const override { return queue_.len(); }
  std::uint64_t global_queue_lock_waits() const override { return queue_.lock_waits(); }

 private:
  // The core's run queue: Tokio's Core::tasks (a VecDeque of Notifieds).
  // Intrusive, like the injection queue (each task's queue_next), so
  // queueing allocates nothing; only the thread holding the core touches
  // it, so it needs no lock and no atomic.
  class LocalQueue {
   public:
    void push(Header* task);
    // A chain linked through queue_next, `first` to `last` (whose
    // queue_next is nullptr), at the back.
    void append(Header* first, Header* last);
    Header* pop();  // the oldest, or nullptr
    bool is_empty() const { return head_ == nullptr; }

   private:
    Header* head_ = nullptr;
    Header* tail_ = nullptr;
  };

  // How many tasks the core runs between two looks at the injection
  // queue, if its own never runs dry: Tokio's current-thread default, 31.
  static constexpr std::uint32_t global_queue_interval = 31;

  // A task spawned or woken on another thread, or on this one outside
  // the scheduler: the injection queue, and an unpark of the core.
  void schedule_remote(Header* task);
  // The next task to poll, for the thread holding the core.
  Header* next_task();
  // Moves what the injection queue holds to the back of local_.
  void take_remote_tasks();

  // Takes the core if it is free (then `parker` is what schedule()
  // unparks); otherwise lists `parker`, to be unparked when it is released.
  bool try_take_core(const std::shared_ptr<Parker>& parker);
  // Under core_mutex_, with the core free: this thread holds it now.
  void hold_core(std::shared_ptr<Parker> parker);
  // Hands the core on; after shutdown, drops what its queue still holds.
  void release_core();
  void drop_local_tasks();

  Inject queue_;  // closed at shutdown: later remote wakes are dropped
  // Only the thread holding the core:
  LocalQueue local_;
  std::uint32_t tick_ = 0;  // task polls
  const CurrentThread* held_before_ = nullptr;  // the core its thread held before (usually none)
  // Written under core_mutex_:
  loom::mutex core_mutex_;
  loom::atomic<bool> core_taken_{false};  // also read without it, by schedule_remote
  bool shut_down_ = false;  // then whoever releases the core empties local_
  std::shared_ptr<Parker> core_parker_;  // the parker of the thread holding the core
  std::vector<std::shared_ptr<Parker>> waiting_;  // block_on calls waiting for the core
  std::uint32_t event_interval_;
};

}  // namespace rt::detail
