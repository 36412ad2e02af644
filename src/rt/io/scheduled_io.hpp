//@ file reactor..
// ScheduledIo: what the driver knows of one registered socket: what it is
// ready for, and who waits for it. Mirrors Tokio's
// runtime/io/scheduled_io.rs.
//
// Its state is one atomic word, so that the driver's thread and the
// tasks' threads agree on it without a lock:
//
//   bits  0-15   readiness (rt::io::Ready)
//   bits 16-30   tick: advanced by every event the driver delivers
//   bit  31      shutdown: the driver is gone; every wait ends in an error
//
// The driver sets bits with a new tick (set_readiness); a task that finds
// its system call would block clears the bits it saw, but only if the tick
// is still the one it saw (clear_readiness): an event that arrived in
// between has advanced the tick, so its readiness stays and the task tries
// again instead of sleeping through it. The closed bits are never cleared.
//
// One waker per direction (a reader's and a writer's), under a small
// mutex: a task that must wait stores its waker, then looks at the word
// again, so that an event that came between its first look and the store
// is not lost.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

#include "rt/io/ready.hpp"
#include "rt/loom.hpp"
#include "rt/task/context.hpp"
#include "rt/task/waker.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Called, when set, between a task's first look at the readiness word and
// its storing of a waker (in poll_readiness): lets a test deliver an event
// at exactly that moment.
inline loom::atomic<void (*)()> before_io_waker_stored{nullptr};

//@ listing scheduled_io
// What a task saw when it found a socket ready: the tick says which
// events it has seen, so that clearing forgets those and no others.
struct ReadyEvent {
  std::uint32_t tick = 0;
  io::Ready ready = io::none;
  bool is_shutdown = false;
};

class ScheduledIo {
 public:
  // The word's fields.
  static constexpr std::uint32_t readiness_mask = 0xffffu;
  static constexpr unsigned tick_shift = 16;
  static constexpr std::uint32_t tick_mask = 0x7fffu;  // 15 bits, after the shift
  static constexpr std::uint32_t shutdown_bit = 1u << 31;

  // Driver side: an event brought `ready`: add it, with a new tick.
  void set_readiness(io::Ready ready);
  // Driver side: wake the tasks that wait for any of `ready`.
  void wake(io::Ready ready);
  // The driver shuts down: every wait, now and later, ends.
  void shutdown();

  // Task side: the readiness in `direction`, or, when there is none,
  // store cx's waker for that direction and return nothing (pending).
  std::optional<ReadyEvent> poll_readiness(Context& cx, io::Direction direction);
  // Task side: the system call would block after all: forget the
  // readiness `event` reported, unless a newer event came since.
  void clear_readiness(const ReadyEvent& event);
  // Task side: the readiness in `direction` as it is now, without waiting.
  ReadyEvent ready_event(io::Direction direction) const;

  // The whole word; for tests and the driver's metrics.
  std::uint32_t load() const { return readiness_.load(std::memory_order_acquire); }

 private:
  loom::atomic<std::uint32_t> readiness_{0};
  loom::mutex waiters_mutex_;
  Waker reader_;  // the task waiting to read, if any
  Waker writer_;  // the task waiting to write, if any
};
//@ listing-end scheduled_io

}  // namespace rt::detail
