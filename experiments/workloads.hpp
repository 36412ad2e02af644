// Three of Tokio's scheduler benchmarks (benches/rt_multi_threaded.rs),
// same shapes and counts, for the experiments of chapters 04 and 05.
// (scripts/bench runs every workload on every runtime; an experiment shows
// what one chapter changed, with its own counters beside the times.)
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "rt/rt.hpp"

namespace experiment {

// What the tasks of a spawn_many round share. Each task holds a
// reference, so the last one can signal without outliving it.
struct Countdown {
  explicit Countdown(int tasks) : left(tasks) {}
  std::atomic<int> left;
  rt::Notify done;
};

inline rt::Task<> count_down(std::shared_ptr<Countdown> countdown) {
  // acq_rel: the last task sees every other task's decrement.
  if (countdown->left.fetch_sub(1, std::memory_order_acq_rel) == 1) countdown->done.notify_one();
  co_return;
}

// Spawns `tasks` empty tasks from the calling task, then waits for the
// last to count down.
inline rt::Task<> spawn_then_wait(int tasks) {
  auto countdown = std::make_shared<Countdown>(tasks);
  for (int i = 0; i < tasks; ++i) (void)rt::spawn(count_down(countdown));  // detached
  co_await countdown->done.notified();
}

inline rt::Task<> nothing() { co_return; }

// spawn_many_remote_idle: spawns from this thread, outside the runtime,
// then joins every task.
inline void spawn_many_remote_idle(rt::Runtime& runtime, int tasks) {
  std::vector<rt::JoinHandle<void>> handles;
  handles.reserve(tasks);
  rt::Handle handle = runtime.handle();
  for (int i = 0; i < tasks; ++i) handles.push_back(handle.spawn(nothing()));
  runtime.block_on([](std::vector<rt::JoinHandle<void>>& all) -> rt::Task<> {
    for (auto& joined : all) co_await joined;
  }(handles));
}

inline rt::Task<> yield_times(int times) {
  for (int i = 0; i < times; ++i) co_await rt::yield_now();
}

// yield_many: `tasks` tasks, each yields `yields` times.
inline rt::Task<> yield_many(int tasks, int yields) {
  std::vector<rt::JoinHandle<void>> handles;
  for (int i = 0; i < tasks; ++i) handles.push_back(rt::spawn(yield_times(yields)));
  for (auto& joined : handles) co_await joined;
}

}  // namespace experiment
