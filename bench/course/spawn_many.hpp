// spawn_many_*: the cost of a spawn, from inside the runtime (local) and from
// a thread outside it (remote), the latter on an idle runtime or on one kept
// busy by a task that spawns itself forever. Tokio's spawn_many_local,
// spawn_many_remote_idle and spawn_many_remote_busy.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "../workloads.hpp"
#include "latch.hpp"
#include "runtime.hpp"

namespace bench::course {

inline rt::Task<> empty_task() { co_return; }

inline rt::Task<> count_down_task(Latch& done) {
  done.count_down();
  co_return;
}

// Current-thread shape: spawn them all, then join each.
inline rt::Task<> spawn_then_join(long n) {
  std::vector<rt::JoinHandle<void>> handles;
  handles.reserve(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) handles.push_back(rt::spawn(empty_task()));
  co_await join_all(handles);
}

// Multi-thread shape: each task counts down; wait for the last.
inline rt::Task<> spawn_then_wait(long n, Latch& done) {
  for (long i = 0; i < n; ++i) (void)rt::spawn(count_down_task(done));  // detached
  co_await done.wait();
}

class SpawnManyLocal : public Workload {
 public:
  explicit SpawnManyLocal(Flavour flavour, int workers)
      : flavour_(flavour), runtime_(make_runtime(flavour, workers)) {}

  void iteration() override {
    long n = spawn_count(flavour_);
    if (flavour_ == Flavour::current_thread) {
      runtime_->block_on(spawn_then_join(n));
    } else {
      Latch done(n);
      runtime_->block_on(spawn_then_wait(n, done));
    }
  }

 private:
  Flavour flavour_;
  std::unique_ptr<rt::Runtime> runtime_;
};

// Tokio's iter(): the task spawns its successor and ends, forever (here:
// until the workload ends).
inline rt::Task<> spawn_forever(const std::atomic<bool>& stop) {
  // relaxed: a request to stop, publishing nothing else.
  if (!stop.load(std::memory_order_relaxed)) (void)rt::spawn(spawn_forever(stop));
  co_return;
}

class SpawnManyRemote : public Workload {
 public:
  SpawnManyRemote(Flavour flavour, int workers, bool busy)
      : flavour_(flavour), runtime_(make_runtime(flavour, workers)) {
    if (busy) (void)runtime_->spawn(spawn_forever(stop_));
  }
  ~SpawnManyRemote() override { stop_.store(true, std::memory_order_relaxed); }

  void iteration() override {
    long n = spawn_count(flavour_);
    std::vector<rt::JoinHandle<void>> handles;
    handles.reserve(static_cast<std::size_t>(n));
    // From this thread, which is not one of the runtime's: a remote spawn.
    for (long i = 0; i < n; ++i) handles.push_back(runtime_->spawn(empty_task()));
    runtime_->block_on(join_all(handles));
  }

 private:
  Flavour flavour_;
  std::atomic<bool> stop_{false};         // declared before runtime_: outlives it
  std::unique_ptr<rt::Runtime> runtime_;
};

}  // namespace bench::course
