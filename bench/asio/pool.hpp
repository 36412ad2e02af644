// Pool: Asio's runtime, as a C++ user would set it up today. One io_context;
// the multi-thread flavour runs it on N threads, the current-thread flavour
// on the thread that waits (as a current-thread runtime's block_on does).
// Countdown is what that thread waits for.
#pragma once

#include <asio.hpp>
#include <atomic>
#include <thread>
#include <vector>

#include "../workloads.hpp"

namespace bench::asio_side {

// Tasks count down; the thread that drives the pool waits for zero. It lives
// as long as the workload, so a task's last count_down never outlives it.
class Countdown {
 public:
  void arm(long count) { remaining_.store(count, std::memory_order_relaxed); }
  void count_down() {
    // release: the waiter, acquiring zero, sees every task's writes.
    if (remaining_.fetch_sub(1, std::memory_order_release) == 1) remaining_.notify_all();
  }
  bool done() const { return remaining_.load(std::memory_order_acquire) == 0; }
  void wait() const {
    for (long seen = remaining_.load(std::memory_order_acquire); seen != 0;
         seen = remaining_.load(std::memory_order_acquire)) {
      remaining_.wait(seen, std::memory_order_acquire);
    }
  }

 private:
  std::atomic<long> remaining_{0};
};

class Pool {
 public:
  Pool(Flavour flavour, int workers)
      : context_(flavour == Flavour::current_thread ? 1 : workers), work_(asio::make_work_guard(context_)) {
    if (flavour == Flavour::multi_thread) {
      for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { context_.run(); });
    }
  }
  ~Pool() {
    work_.reset();
    context_.stop();  // a task that spawns itself forever would keep run() going
    for (auto& thread : threads_) thread.join();
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  asio::io_context& context() { return context_; }

  // Returns once `countdown` reached zero; on the current-thread flavour,
  // runs the pool's handlers on this thread meanwhile.
  void drive_until(const Countdown& countdown) {
    if (threads_.empty()) {
      while (!countdown.done()) context_.run_one();
    } else {
      countdown.wait();
    }
  }

 private:
  asio::io_context context_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

}  // namespace bench::asio_side
