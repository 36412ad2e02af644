// Helpers for chapter 07's tests: tasks that write down the order in which
// they ran, on a one-worker runtime where that order is the scheduler's.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "rt/rt.hpp"

namespace ch07 {

class Order {
 public:
  void add(std::string what) {
    std::lock_guard lock(mutex_);
    seen_.push_back(std::move(what));
    grew_.notify_all();
  }
  // Blocks until `count` have run (the grader's timeout bounds it).
  void wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    grew_.wait(lock, [&] { return seen_.size() >= count; });
  }
  std::vector<std::string> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable grew_;
  std::vector<std::string> seen_;
};

inline rt::Task<> record(Order& order, std::string what) {
  order.add(std::move(what));
  co_return;
}

// A one-worker runtime; the slot on unless `lifo` is false.
inline rt::Runtime one_worker(bool lifo = true) {
  rt::Builder builder = rt::Builder::new_multi_thread();
  builder.worker_threads(1).global_queue_interval(100000);  // no look at the global queue meanwhile
  if (!lifo) builder.disable_lifo_slot();
  return builder.build();
}

// Runs `parent` as a task on `runtime`'s worker; it returns the handles
// of what it spawned, which are awaited from outside, so that the parent
// itself is never woken on the worker.
inline void run_parent(rt::Runtime& runtime, rt::Task<std::vector<rt::JoinHandle<void>>> parent) {
  runtime.block_on([](rt::Task<std::vector<rt::JoinHandle<void>>> task) -> rt::Task<> {
    auto handle = rt::spawn(std::move(task));
    for (auto& child : co_await handle) co_await child;
  }(std::move(parent)));
}

}  // namespace ch07
