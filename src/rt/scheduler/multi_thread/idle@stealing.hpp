//@ file stealing..
// Idle: which workers sleep and how many search, so that new work wakes a
// worker only when nobody is already looking for it, and never more than
// about half the workers search at once. Mirrors Tokio's
// runtime/scheduler/multi_thread/idle.rs.
//
// One atomic word holds two counts, so that one operation reads or
// changes both:
//
//   low 16 bits   num_searching: workers looking for work to steal
//   above them    num_unparked:  workers not asleep
//
// The sleepers' list itself is under a mutex. The protocol that loses no
// wake-up:
//   whoever queues a task:  push it, THEN wake a sleeper, unless somebody
//                           searches (read with an RMW of the word);
//   a searcher that parks:  leave the searchers (an RMW of the word), and
//                           if it was the last one, look at every queue.
// The two RMWs are ordered, as all changes of one atomic are. If the
// pusher's comes first, the searcher's reads what it wrote, and so sees
// the task pushed before it. If the searcher's comes first, the pusher
// sees nobody searching, and wakes a sleeper. A plain load would not do:
// it may read the word before a store to a ring's tail is visible to
// others, and then both sides miss each other.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
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
  // Every worker starts awake, and none searches.
  explicit Idle(std::size_t workers);

  // The worker found no work of its own and would search: true if it may,
  // which is while fewer than half the workers search.
  bool transition_worker_to_searching();

  // A searcher found work and stops searching: true if it was the last
  // searcher (it must then wake another worker to search on).
  bool transition_worker_from_searching();

  // The worker will park, searching or not: list it as a sleeper. True if
  // it was the last searcher (it must then look at every queue once more).
  bool transition_worker_to_parked(std::size_t worker, bool is_searching);

  // The worker found work after listing itself: unlist it. False when a
  // notifier took it off the list meanwhile (its unpark is on the way).
  bool unpark_worker_by_id(std::size_t worker);

  // Work arrived: if nobody searches and somebody sleeps, take one sleeper
  // off the list, count it as unparked and searching, and return it.
  std::optional<std::size_t> worker_to_notify();

  // Whether `worker` is on the sleepers' list.
  bool is_parked(std::size_t worker);

  // Every sleeper, taken off the list: for shutdown.
  std::vector<std::size_t> take_all();

  std::size_t num_sleeping() const;
  std::size_t num_searching() const {
    return state_.load(std::memory_order_seq_cst) & searching_mask;
  }

 private:
  static constexpr unsigned unpark_shift = 16;
  static constexpr std::uint32_t searching_mask = (1u << unpark_shift) - 1;
  static constexpr std::uint32_t one_unparked = 1u << unpark_shift;

  // Nobody searches and somebody sleeps: a new task needs a wake-up.
  bool notify_should_wakeup();

  const std::size_t num_workers_;
  loom::atomic<std::uint32_t> state_;  // num_unparked << 16 | num_searching
  loom::mutex mutex_;
  std::vector<std::size_t> sleepers_;  // reserved up front: no allocation under the lock
};

}  // namespace rt::detail
