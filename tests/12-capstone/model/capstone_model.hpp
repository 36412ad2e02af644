// Chapter 12's model-test helpers: a waker whose wake-ups a thread can
// wait for (with the checker's lock and condition variable, so that a
// wake-up nobody sends is a deadlock the checker reports), and tasks that
// finish on a thread of the test's own, with no runtime: a real task cell
// bound to a scheduler that only lets the task go once it completed.
#pragma once

#include <memory>
#include <mutex>

#include "model/model.hpp"
#include "model/sync.hpp"
#include "rt/rt.hpp"
#include "rt/task/cell.hpp"
#include "rt/task/harness.hpp"

namespace ch12_model {

// A waker of the test's own. Its reference count is one of the checker's
// atomics, so that cloning it (as a future that keeps it does) is a point
// where another thread may run.
class WaitableWaker {
 public:
  WaitableWaker() : waker_(rt::Waker::from_raw({this, &vtable})) {}
  WaitableWaker(const WaitableWaker&) = delete;
  WaitableWaker& operator=(const WaitableWaker&) = delete;

  const rt::Waker& waker() const { return waker_; }

  // Waits until it has been woken `count` times in all.
  void wait_woken(int count) {
    std::unique_lock lock(mutex_);
    woken_.wait(lock, [&] { return wakes_ >= count; });
  }
  int wakes() {
    std::lock_guard lock(mutex_);
    return wakes_;
  }

 private:
  static WaitableWaker& self(const void* data) { return *static_cast<WaitableWaker*>(const_cast<void*>(data)); }
  static rt::RawWaker clone(const void* data) {
    self(data).refs_.fetch_add(1, std::memory_order_relaxed);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    wake_by_ref(data);
    drop(data);
  }
  static void wake_by_ref(const void* data) {
    WaitableWaker& waker = self(data);
    std::lock_guard lock(waker.mutex_);
    ++waker.wakes_;
    waker.woken_.notify_all();
  }
  static void drop(const void* data) { self(data).refs_.fetch_sub(1, std::memory_order_relaxed); }

  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  model::atomic<int> refs_{1};
  model::mutex mutex_;
  model::condition_variable woken_;
  int wakes_ = 0;
  rt::Waker waker_;  // last: it refers to the fields above
};

// The scheduler of a task that runs once, on the thread that calls run():
// nothing wakes it (it never waits), and it is in no owned list.
class RunOnce final : public rt::detail::Schedule {
 public:
  void schedule(rt::detail::Header*) override { model::check(false, "a task that never waits was scheduled again"); }
  bool release(rt::detail::Header&) override { return false; }
};

inline rt::Task<int> value(int v) { co_return v; }

// A task that completes with `v` when run() polls it. Three references,
// as a spawned task's: its JoinHandle's, the Notified that run()'s poll
// takes, and the one run() gives up after it (an owned list's).
inline rt::detail::Cell<int>* make_task(int v) {
  return rt::detail::Cell<int>::create(std::make_shared<RunOnce>(), value(v));
}
inline void run(rt::detail::Cell<int>* task) {
  rt::detail::poll(task);
  rt::detail::drop_reference(task);
}

}  // namespace ch12_model
