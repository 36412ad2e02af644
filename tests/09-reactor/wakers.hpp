// Chapter 09's test wakers. A socket keeps the waker of the task waiting
// on it until an event or the driver's shutdown, and a released
// registration keeps it until the driver frees it, at its next turn or at
// the runtime's end: later than a test's local variables live. So these
// counters live on the heap, shared by every clone, and go with the last
// one (tests/support/counting_waker.hpp's live on the test's stack).
//
//   SharedWaker waiting;
//   rt::Context cx(waiting.waker());
//   CHECK_FALSE(read.poll(cx));
//   ... an event ...
//   CHECK(waiting.wakes() == 1);
//
// A SharedWaker may also act when woken (`on_wake`), at the moment the
// driver wakes it: what a task woken there could do.
#pragma once

#include <atomic>
#include <functional>
#include <utility>

#include "rt/rt.hpp"

namespace ch09 {

class SharedWaker {
 public:
  explicit SharedWaker(std::function<void()> on_wake = {})
      : state_(new State{std::move(on_wake)}), waker_(rt::Waker::from_raw({state_, &vtable})) {}
  SharedWaker(const SharedWaker&) = delete;
  SharedWaker& operator=(const SharedWaker&) = delete;
  ~SharedWaker() {
    state_->armed.store(false);  // clones may outlive this: they only count from now on
  }

  const rt::Waker& waker() const { return waker_; }
  // How often it was woken, by value or by reference.
  int wakes() const { return state_->wakes.load(); }
  // Clones held by others (not yet dropped or woken by value).
  int held() const { return state_->refs.load() - 1; }
  // No more acting when woken (counting goes on).
  void disarm() { state_->armed.store(false); }

 private:
  struct State {
    std::function<void()> on_wake;
    std::atomic<bool> armed{true};
    std::atomic<int> wakes{0};
    std::atomic<int> refs{1};
  };

  static State& self(const void* data) { return *static_cast<State*>(const_cast<void*>(data)); }
  static void woken(State& state) {
    state.wakes.fetch_add(1);
    if (state.on_wake && state.armed.exchange(false)) state.on_wake();  // once
  }
  static void release(State& state) {
    if (state.refs.fetch_sub(1) == 1) delete &state;
  }
  static rt::RawWaker clone(const void* data) {
    self(data).refs.fetch_add(1);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    woken(self(data));
    release(self(data));
  }
  static void wake_by_ref(const void* data) { woken(self(data)); }
  static void drop(const void* data) { release(self(data)); }

  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  State* state_;
  rt::Waker waker_;  // holds the reference of this object; dropped last
};

}  // namespace ch09
