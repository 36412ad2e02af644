//@ file threads..
// MultiThread: N worker threads sharing one global injection queue. Mirrors
// Tokio's runtime/scheduler/multi_thread (worker.rs, handle.rs), as it
// would be with the injection queue alone: the local queues, the LIFO slot
// and stealing come in chapters 05 to 07.
//
// Each worker loops: take the next task from the queue and poll it; with
// none, park until a task arrives. Whoever queues a task wakes one parked
// worker, if any is parked (see idle.hpp for why no wake-up is lost). The
// thread that calls block_on is not a worker: it only polls its own
// future, as in Tokio.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "rt/scheduler/handle.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"
#include "rt/scheduler/park.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

struct MultiThreadConfig {
  std::size_t workers = 1;
  std::string thread_name = "rt-worker";
  // Not used yet: no local queues (chapter 05), no drivers (chapters 09, 10).
  std::uint32_t global_queue_interval = 61;
  std::uint32_t event_interval = 61;
};

class MultiThread final : public SchedulerHandle, public std::enable_shared_from_this<MultiThread> {
 public:
  explicit MultiThread(MultiThreadConfig config);

  // Starts the worker threads; each holds a reference to this handle.
  void start();

  void schedule(Header* task) override;
  void block_on(Poller& root) override;
  void shutdown() override;

  std::size_t num_workers() const override { return workers_.size(); }
  std::size_t global_queue_depth() const override { return inject_.len(); }
  std::uint64_t global_queue_lock_waits() const override { return inject_.lock_waits(); }
  std::size_t num_idle_workers() const override { return idle_.num_sleeping(); }
  std::uint64_t worker_park_count(std::size_t worker) const override;
  std::uint64_t worker_unpark_count(std::size_t worker) const override;

 private:
  // What each worker has of its own.
  struct Worker {
    Parker parker;
    std::atomic<std::uint64_t> parks{0};    // how often it went to sleep
    std::atomic<std::uint64_t> unparks{0};  // how often new work woke it
  };

  // The worker loop, on worker thread `index`.
  void run(std::size_t index);
  // Sleeps until there may be work, without missing a task queued meanwhile.
  void park(std::size_t index);
  // A task was queued: wake one parked worker, if any.
  void notify_parked();
  // Wakes worker `index`, which notify_parked took off the sleepers' list.
  void unpark(std::size_t index);

  MultiThreadConfig config_;
  Inject inject_;
  Idle idle_;
  std::vector<Worker> workers_;
  std::vector<std::thread> threads_;
  std::latch started_;  // every worker has entered its loop: build() returns then
};

}  // namespace rt::detail
