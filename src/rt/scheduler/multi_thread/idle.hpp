//@ file threads..local-queues
// Idle: which workers are asleep, so that new work wakes exactly one of
// them, and only when one sleeps. Mirrors Tokio's
// runtime/scheduler/multi_thread/idle.rs (its list of sleepers, without
// the "searching" workers of chapter 06).
//
// The protocol that loses no wake-up (a Dekker handshake):
//   a worker going to sleep:  list itself (num_sleeping_ += 1), THEN look
//                             at the queue once more, THEN park;
//   whoever queues a task:    push it, THEN read num_sleeping_ and wake a
//                             listed sleeper, if any.
// Both sides use seq_cst, so at least one of them sees the other: either
// the worker sees the task, or the pusher sees the sleeper.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

#include "rt/loom.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Called at the start of every Idle::transition_worker_to_parked, with the
// worker's index, when set: lets a test act at the exact moment a worker
// has found no work and is about to list itself as asleep.
inline loom::atomic<void (*)(std::size_t)> before_worker_parks{nullptr};

class Idle {
 public:
  explicit Idle(std::size_t workers) { sleepers_.reserve(workers); }

  // The worker found no work and will park: list it as a sleeper.
  void transition_worker_to_parked(std::size_t worker);

  // The worker found work after listing itself: unlist it. False when a
  // notifier took it off the list meanwhile (its unpark is on the way).
  bool unpark_worker_by_id(std::size_t worker);

  // Work arrived: take one sleeper off the list and return it, to be
  // unparked; nothing when no worker sleeps.
  std::optional<std::size_t> worker_to_notify();

  // Every sleeper, taken off the list: for shutdown.
  std::vector<std::size_t> take_all();

  std::size_t num_sleeping() const { return num_sleeping_.load(std::memory_order_seq_cst); }

 private:
  loom::mutex mutex_;
  std::vector<std::size_t> sleepers_;  // reserved up front: no allocation under the lock
  loom::atomic<std::size_t> num_sleeping_{0};  // sleepers_.size(), readable without the lock
};

}  // namespace rt::detail
