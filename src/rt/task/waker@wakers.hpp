// Waker and Context: how a waiting task asks to be polled again.
//
// Mirrors std::task::Waker and std::task::Context, which Tokio's tasks are
// built on. A leaf future that cannot finish yet clones the waker it is
// handed and keeps it; whoever makes progress possible later calls wake().
//
// A waker is std::task's RawWaker: a data pointer plus a static table of
// four functions (clone, wake, wake_by_ref, drop). Copying a Waker calls
// clone, destroying it calls drop; what the pointer points at, and what a
// reference means, is the table's business. A spawned task's table is in
// rt/task/task_waker.hpp (the pointer is the task's header, a clone is one
// more reference in its state word); block_on's is in
// rt/scheduler/current_thread.cpp.
#pragma once

#include <utility>

namespace rt {

//@ listing raw_waker
struct RawWakerVTable;

// A waker with its type erased: what the data pointer means is known only
// to the functions in the table. Mirrors std::task::RawWaker.
struct RawWaker {
  const void* data = nullptr;
  const RawWakerVTable* vtable = nullptr;
};

// Mirrors std::task::RawWakerVTable. Each function gets the data pointer.
struct RawWakerVTable {
  RawWaker (*clone)(const void* data);     // a new reference
  void (*wake)(const void* data);          // wake, and give up this reference
  void (*wake_by_ref)(const void* data);   // wake, and keep it
  void (*drop)(const void* data);          // give up this reference
};
//@ listing-end raw_waker

//@ listing waker
class Waker {
 public:
  Waker() = default;  // a waker that wakes nothing

  // Adopts the reference that `raw` stands for (Rust's Waker::from_raw).
  static Waker from_raw(RawWaker raw) { return Waker(raw); }

  Waker(const Waker& other) : raw_(other.raw_.vtable ? other.raw_.vtable->clone(other.raw_.data) : RawWaker{}) {}
  Waker(Waker&& other) noexcept : raw_(std::exchange(other.raw_, {})) {}
  Waker& operator=(Waker other) noexcept {  // copy-and-swap: clone, then drop the old one
    std::swap(raw_, other.raw_);
    return *this;
  }
  ~Waker() {
    if (raw_.vtable) raw_.vtable->drop(raw_.data);
  }

  // Wakes the task and gives up this waker (Rust's `wake(self)`).
  void wake() {
    RawWaker raw = std::exchange(raw_, {});
    if (raw.vtable) raw.vtable->wake(raw.data);
  }
  // Wakes the task and keeps this waker.
  void wake_by_ref() const {
    if (raw_.vtable) raw_.vtable->wake_by_ref(raw_.data);
  }
  // True when both wake the same thing the same way: lets a leaf skip
  // replacing the waker it keeps.
  bool will_wake(const Waker& other) const {
    return raw_.data == other.raw_.data && raw_.vtable == other.raw_.vtable;
  }
  explicit operator bool() const { return raw_.vtable != nullptr; }

  const RawWaker& as_raw() const { return raw_; }

 private:
  explicit Waker(RawWaker raw) : raw_(raw) {}

  RawWaker raw_;
};
//@ listing-end waker

// A Waker that borrows a reference instead of owning one: never cloned,
// never dropped (Tokio's WakerRef, a ManuallyDrop<Waker>). A poll hands
// one to the task's leaves, so a poll costs no reference-count traffic
// unless a leaf clones the waker to keep it.
class WakerRef {
 public:
  explicit WakerRef(RawWaker raw) : waker_(Waker::from_raw(raw)) {}
  WakerRef(const WakerRef&) = delete;
  WakerRef& operator=(const WakerRef&) = delete;
  ~WakerRef() {}  // deliberately does not destroy waker_: it owns nothing

  const Waker& get() const { return waker_; }

 private:
  union {
    Waker waker_;
  };
};

// What a poll hands to the leaf it polls. Leaves clone the waker to keep it.
class Context {
 public:
  explicit Context(const Waker& waker) : waker_(waker) {}
  const Waker& waker() const { return waker_; }

 private:
  const Waker& waker_;
};

}  // namespace rt
