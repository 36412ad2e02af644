//@ file blocking..
// BlockingPool: threads for work that blocks, apart from the tasks' own
// polls. Mirrors Tokio's runtime/blocking/pool.rs.
//
// A job waits in one FIFO queue under one mutex. Queuing a job wakes an
// idle thread if there is one, else starts a new thread while there are
// fewer than the cap, else leaves the job for the next thread that frees
// up. A thread that has been idle for keep_alive leaves.
//
// A job is a task (rt/blocking/spawn_blocking.hpp) whose one poll runs a
// function to its end: its JoinHandle, output, exceptions and abort are
// those of every task. The multi-thread runtime's worker loops are jobs
// too, as in Tokio, so the cap counts them: max_blocking_threads + workers.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>

#include "rt/loom.hpp"
#include "rt/task/header.hpp"

namespace rt::detail {

struct BlockingConfig {
  std::size_t thread_cap = 512;  // threads at most, worker loops included
  std::chrono::nanoseconds keep_alive = std::chrono::seconds(10);
  std::string thread_name = "rt-worker";
};

class BlockingPool final : public Schedule, public std::enable_shared_from_this<BlockingPool> {
 public:
  explicit BlockingPool(BlockingConfig config) : config_(std::move(config)) {}
  BlockingPool(const BlockingPool&) = delete;
  BlockingPool& operator=(const BlockingPool&) = delete;

  // Queues `job`, which holds two references: the Notified its poll takes,
  // and the one the pool gives up after it. A mandatory job (a worker
  // loop) still runs when shutdown begins while it waits; after shutdown,
  // a new job is cancelled instead, and its JoinHandle says so.
  void spawn(Header* job, bool mandatory = false);

  // Schedule: a job runs once, to its end, so nothing wakes it after it
  // started; an abort before it starts only marks it (it stays queued).
  void schedule(Header* job) override { spawn(job); }
  bool release(Header&) override { return false; }  // in no owned list

  // Refuses new jobs, cancels the queued ones that are not mandatory, and
  // waits for every thread to leave: for ever, or at most `timeout`. A
  // thread still running a job then is left to finish on its own.
  void shutdown(std::optional<std::chrono::nanoseconds> timeout);

  // What RuntimeMetrics reports.
  std::size_t num_threads() const;
  std::size_t num_idle_threads() const;
  std::size_t queue_depth() const;

 private:
  struct Job {
    Header* task;
    bool mandatory;
  };

  // Starts a thread to run the queue; `lock` is held, and released only
  // when no thread at all can be had (then it throws).
  void start_thread(std::unique_lock<loom::mutex>& lock);
  // A pool thread's loop: jobs while there are any, then idle.
  void run(std::size_t id);
  // Idle until spawn picks this thread, the keep-alive runs out, or
  // shutdown; true when there is work to do.
  bool wait_for_work(std::unique_lock<loom::mutex>& lock);
  // At shutdown: cancels what is queued, but runs the mandatory jobs.
  void drain(std::unique_lock<loom::mutex>& lock);
  // What a leaving thread does with its own std::thread: the next to
  // leave joins it (Tokio's last_exiting_thread).
  void forget_thread(std::size_t id, std::unique_lock<loom::mutex>& lock);
  static void run_job(Job job);
  static void cancel_job(Job job);

  const BlockingConfig config_;
  mutable loom::mutex mutex_;
  loom::condition_variable condvar_;  // idle threads wait here for work
  loom::condition_variable all_left_;  // shutdown waits here for the threads
  std::deque<Job> queue_;
  std::size_t num_threads_ = 0;
  std::size_t num_idle_ = 0;
  // Idle threads that spawn took off num_idle_ and woke: each takes one
  // count, so a spurious wake-up is told from a real one.
  std::size_t num_notify_ = 0;
  bool shutdown_ = false;
  std::size_t next_id_ = 0;
  std::unordered_map<std::size_t, loom::thread> threads_;
  loom::thread last_exiting_;
};

}  // namespace rt::detail
