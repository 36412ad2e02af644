// Chapter 11's test helpers: runtimes with the blocking pool's limits set,
// a flag that blocking jobs wait on, and a bounded wait for what happens
// on the pool's own time (a keep-alive running out).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "graded.hpp"
#include "rt/rt.hpp"

namespace ch11 {

using namespace std::chrono_literals;

struct Limits {
  std::size_t max_blocking = 512;
  std::chrono::nanoseconds keep_alive = 10s;
};

inline rt::Runtime current_thread(Limits limits = {}) {
  return rt::Builder::new_current_thread()
      .max_blocking_threads(limits.max_blocking)
      .thread_keep_alive(limits.keep_alive)
      .build();
}

inline rt::Runtime multi_thread(std::size_t workers, Limits limits = {}) {
  return rt::Builder::new_multi_thread()
      .worker_threads(workers)
      .max_blocking_threads(limits.max_blocking)
      .thread_keep_alive(limits.keep_alive)
      .build();
}

// Runs `body(runtime)` on a current-thread runtime, then on a one-worker
// multi-thread runtime: the flavour with a thread to block and the one
// with no thread to spare.
template <class Body>
void on_each_flavour(Body body, Limits limits = {}) {
  {
    INFO("on the current-thread runtime");
    rt::Runtime runtime = current_thread(limits);
    body(runtime);
  }
  {
    INFO("on a multi-thread runtime with 1 worker");
    rt::Runtime runtime = multi_thread(1, limits);
    body(runtime);
  }
}

// Set once, waited for by blocking code (a blocking job may block). With
// the runtime's lock and condition variable, so that in a model test a
// wait nobody ends is a deadlock the model checker reports.
class Flag {
 public:
  void set() {
    std::lock_guard lock(mutex_);
    set_ = true;
    changed_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return set_; });
  }
  bool is_set() {
    std::lock_guard lock(mutex_);
    return set_;
  }

 private:
  rt::loom::mutex mutex_;
  rt::loom::condition_variable changed_;
  bool set_ = false;
};

// Whether `done()` holds within `limit`, looking every millisecond: for
// what the pool does on its own clock (an idle thread leaving), never to
// order two threads of the test.
template <class Done>
bool eventually(Done done, std::chrono::milliseconds limit = 2000ms) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

}  // namespace ch11
