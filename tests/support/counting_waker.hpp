// CountingWaker: a waker of the test's own, which counts what is done with
// it. With it a test polls a leaf future by hand, outside any task, and
// sees exactly whom the leaf wakes: no runtime, no thread, no timing.
//
//   CountingWaker first;
//   rt::Context cx(first.waker());
//   CHECK_FALSE(receiver.poll(cx));
//   ...
//   CHECK(first.wakes() == 1);
//
// Needs chapter 02's raw wakers (rt::RawWaker and its table).
#pragma once

#include <atomic>

#include "rt/rt.hpp"

class CountingWaker {
 public:
  CountingWaker() : waker_(rt::Waker::from_raw({this, &vtable})) {}
  CountingWaker(const CountingWaker&) = delete;
  CountingWaker& operator=(const CountingWaker&) = delete;

  // The waker to hand out; it holds a reference of its own.
  const rt::Waker& waker() const { return waker_; }

  // How often it was woken, by value or by reference.
  int wakes() const { return wakes_.load(); }
  // References held by others (clones not yet dropped or woken by value).
  int held() const { return refs_.load() - 1; }

 private:
  static CountingWaker& self(const void* data) {
    return *static_cast<CountingWaker*>(const_cast<void*>(data));
  }
  static rt::RawWaker clone(const void* data) {
    self(data).refs_.fetch_add(1);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    self(data).wakes_.fetch_add(1);
    self(data).refs_.fetch_sub(1);
  }
  static void wake_by_ref(const void* data) { self(data).wakes_.fetch_add(1); }
  static void drop(const void* data) { self(data).refs_.fetch_sub(1); }

  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  std::atomic<int> wakes_{0};
  std::atomic<int> refs_{1};
  rt::Waker waker_;  // last: it refers to the counters above
};
