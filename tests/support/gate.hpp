// Gate: a leaf future that a test opens by hand, from any thread.
//
// Awaiting gate.wait() is pending until gate.open(). The gate counts how
// often it was polled and keeps the waker it was handed, so that a test
// can see exactly what the runtime did. Other threads wait for the first
// poll with wait_until_polled(): a condition variable, not a sleep.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "rt/rt.hpp"

class Gate {
 public:
  class Wait : public rt::Leaf<Wait> {
   public:
    explicit Wait(Gate& gate) : gate_(gate) {}
    bool poll(rt::Context& cx) override { return gate_.poll(cx); }
    void await_resume() const noexcept {}

   private:
    Gate& gate_;
  };

  Wait wait() { return Wait(*this); }

  // Opens the gate and wakes the waiting task, if any.
  void open() {
    rt::Waker waker;
    {
      std::lock_guard lock(mutex_);
      open_ = true;
      waker = std::move(waker_);
      polled_.notify_all();
    }
    waker.wake();
  }

  int polls() {
    std::lock_guard lock(mutex_);
    return polls_;
  }

  // The waker the last pending poll left here.
  rt::Waker waker() {
    std::lock_guard lock(mutex_);
    return waker_;
  }

  // Blocks the calling thread until the gate has been polled, or opened.
  void wait_until_polled() {
    std::unique_lock lock(mutex_);
    polled_.wait(lock, [this] { return polls_ > 0 || open_; });
  }

 private:
  bool poll(rt::Context& cx) {
    std::lock_guard lock(mutex_);
    ++polls_;
    polled_.notify_all();
    if (open_) return true;
    waker_ = cx.waker();
    return false;
  }

  std::mutex mutex_;
  std::condition_variable polled_;
  bool open_ = false;
  int polls_ = 0;
  rt::Waker waker_;
};

// A thread that opens `gate` once it has been polled. Its destructor opens
// the gate too and joins, so a test that fails early cannot hang or leave
// a running thread behind.
class Opener {
 public:
  explicit Opener(Gate& gate)
      : gate_(gate), thread_([&gate] {
          gate.wait_until_polled();
          gate.open();
        }) {}
  ~Opener() {
    gate_.open();
    thread_.join();
  }

 private:
  Gate& gate_;
  std::thread thread_;
};
