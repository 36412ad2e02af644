//@ file local-queues..
// LocalQueue: a worker's own run queue, a fixed ring of task pointers that
// its worker pushes to and pops from without a lock, and that other
// workers steal from (chapter 06). Mirrors Tokio's
// runtime/scheduler/multi_thread/queue.rs.
//
// The indices only grow, wrapping at 2^32; a task's slot is its index
// modulo Capacity (a power of two, so the wrap keeps every slot in place).
// The owner alone writes tail_. head_ packs two indices in one atomic
// word, so that one compare-and-swap moves both:
//
//   low 32 bits   the real head: the next task to pop or steal
//   high 32 bits  the steal head: where the steal in progress started
//
// They are equal when nobody steals. Between them lie the tasks that a
// stealer is copying out: popped already, their slots still being read,
// so the owner counts them as taken when it pops and as occupied when it
// pushes.
//
// Capacity is a parameter so that the tests can run this very code with a
// ring of 4 (Tokio's model-checking tests do the same); the runtime uses
// 256.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <utility>

#include "rt/loom.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/task/header.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Where push_back_or_overflow put the task.
enum class Pushed {
  local,     // in the ring
  overflow,  // the ring was full: half of it and the task went to the global queue
  global,    // the ring was full while a stealer emptied it: the task alone went there
};

//@ listing local_queue_layout
template <std::uint32_t Capacity = 256>
class LocalQueue {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0,
                "the capacity must be a power of two, so that the indices can wrap");

 public:
  static constexpr std::uint32_t capacity = Capacity;

  // `start` is where the indices begin: the tests start near 2^32 to see
  // them wrap.
  explicit LocalQueue(std::uint32_t start = 0) : head_(pack(start, start)), tail_(start) {}

  LocalQueue(const LocalQueue&) = delete;
  LocalQueue& operator=(const LocalQueue&) = delete;
//@ listing-end local_queue_layout

  // The owner's: appends a Notified. A full ring keeps half of its tasks
  // and moves the other half, with this one, to `inject`.
  Pushed push_back_or_overflow(Header* task, Inject& inject);

  // The owner's: the oldest task, or nullptr.
  Header* pop();

  // Tasks in the ring (a snapshot when read by another thread).
  std::uint32_t len() const {
    auto [steal, real] = unpack(head_.load(std::memory_order_acquire));
    (void)steal;
    return tail_.load(std::memory_order_acquire) - real;
  }
  bool is_empty() const { return len() == 0; }

  // The owner's: how many pushes fit before the ring overflows.
  std::uint32_t remaining_slots() const {
    auto [steal, real] = unpack(head_.load(std::memory_order_acquire));
    (void)real;
    return Capacity - (tail_.load(std::memory_order_relaxed) - steal);
  }

 private:
  static constexpr std::uint32_t mask = Capacity - 1;

  static std::uint64_t pack(std::uint32_t steal, std::uint32_t real) {
    return (std::uint64_t{steal} << 32) | real;
  }
  static std::pair<std::uint32_t, std::uint32_t> unpack(std::uint64_t head) {
    return {static_cast<std::uint32_t>(head >> 32), static_cast<std::uint32_t>(head)};
  }

  // Moves the newer half of a full ring and `task` to `inject`; false
  // when a stealer moved the head meanwhile (then there is room again).
  bool push_overflow(Header* task, std::uint32_t head, std::uint32_t tail, Inject& inject);

  loom::atomic<std::uint64_t> head_;
  loom::atomic<std::uint32_t> tail_;
  // Plain pointers: the indices decide who may touch a slot, and the
  // acquire and release on them order the slot's write before its read.
  // Cells, so that a model test sees a slot read that nothing orders after
  // its write: a data race.
  std::array<loom::UnsafeCell<Header*>, Capacity> buffer_{};
//@ chapters stealing..

  // Other workers steal from the ring (queue_steal.hpp).
 public:
  // Another worker's: moves about half of this ring's tasks into `dst`,
  // the caller's own ring, and returns one of them to run now; nullptr
  // when there is nothing to steal, another steal is in progress, or dst
  // is more than half full. `stolen` is set to how many tasks it took.
  Header* steal_into(LocalQueue& dst, std::uint32_t& stolen);

 private:
  // Claims and copies the tasks to steal into dst's slots from dst_tail
  // on, without publishing them; returns how many.
  std::uint32_t steal_into2(LocalQueue& dst, std::uint32_t dst_tail);
//@ end
};

//@ listing push
template <std::uint32_t Capacity>
Pushed LocalQueue<Capacity>::push_back_or_overflow(Header* task, Inject& inject) {
  //@ exercise local-queues push
  for (;;) {
    // Acquire: pairs with the release of head_ by pop and by stealers, so
    // that the slots they moved past are truly free to overwrite.
    //@ mutant stealing push_relaxed_head: reads the head relaxed, so it may overwrite a slot a stealer is still reading
    auto [steal, real] = unpack(head_.load(std::memory_order_acquire));
    //@ instead
    auto [steal, real] = unpack(head_.load(std::memory_order_relaxed));
    //@ end
    // Relaxed: only this thread writes tail_.
    std::uint32_t tail = tail_.load(std::memory_order_relaxed);
    //@ mutant stealing push_counts_from_real_head: counts the room from the real head, not the steal head
    if (tail - steal < Capacity) {
    //@ instead
    if (tail - real < Capacity) {
    //@ end
      //@ mutant stealing push_tail_before_slot: publishes the new tail before it writes the task into its slot, so a stealer may read the slot first
      buffer_[tail & mask].write(task);
      // Release: whoever acquires the new tail (a stealer) finds the
      // task in its slot.
      //@ mutant stealing push_relaxed_tail: publishes the new tail with a relaxed store, so a stealer may read the slot before the task is in it
      tail_.store(tail + 1, std::memory_order_release);
      //@ instead
      tail_.store(tail + 1, std::memory_order_relaxed);
      //@ end
      //@ instead
      tail_.store(tail + 1, std::memory_order_release);
      buffer_[tail & mask].write(task);
      //@ end
      return Pushed::local;
    }
    if (steal != real) {
      // A stealer is emptying the ring and will make room soon; rather
      // than wait for it, this one task goes to the global queue.
      inject.push_batch(task, task, 1);
      return Pushed::global;
    }
    if (push_overflow(task, real, tail, inject)) return Pushed::overflow;
    // A stealer took tasks in the meantime: there is room now.
  }
  //@ starter
  // TODO: append `task` at the tail of the ring, and return Pushed::local.
  // When the ring is full (tail - steal head == Capacity), it overflows:
  //  - with a steal in progress (steal head != real head), send this one
  //    task to the global queue (inject.push_batch(task, task, 1)) and
  //    return Pushed::global;
  //  - else call push_overflow; true means it moved half of the ring and
  //    the task to the global queue: return Pushed::overflow; false means
  //    a stealer took tasks meanwhile: try again.
  // Only this thread writes tail_; other threads read it.
  // Hint: why count the room from the steal head and not the real one?
  (void)task;
  (void)inject;
  throw Todo("@NN@ push (@FILE@)");
  //@ end
}
//@ listing-end push

//@ listing overflow
template <std::uint32_t Capacity>
bool LocalQueue<Capacity>::push_overflow(Header* task, std::uint32_t head, std::uint32_t tail,
                                         Inject& inject) {
  //@ exercise local-queues overflow
  constexpr std::uint32_t half = Capacity / 2;
  // Claim all Capacity tasks at once: moving the head to the tail leaves
  // the ring empty for stealers. Release, as every move of head_. Fails
  // when a stealer got there first.
  //@ mutant stealing overflow_hands_back_first: hands the older half back to the ring before it claims the ring, so for a moment the ring counts more tasks than it can hold
  //@ instead
  tail_.store(tail + half, std::memory_order_release);
  //@ end
  //@ mutant stealing overflow_claims_by_store: claims the full ring with a plain store, not a compare-and-swap, so a steal claimed meanwhile is undone and its tasks come out twice
  //@ mutant local-queues overflow_claims_relaxed: claims the full ring with a relaxed compare-and-swap, so a thread that reads the new head may read an older tail and count fewer than zero tasks
  std::uint64_t expected = pack(head, head);
  if (!head_.compare_exchange_strong(expected, pack(tail, tail), std::memory_order_release,
                                     std::memory_order_relaxed)) {
    return false;
  }
  //@ instead
  std::uint64_t expected = pack(head, head);
  if (!head_.compare_exchange_strong(expected, pack(tail, tail), std::memory_order_relaxed)) return false;
  //@ end
  //@ instead
  head_.store(pack(tail, tail), std::memory_order_release);
  //@ end
  // The newer half (head + half .. tail) and the new task become one chain.
  //@ mutant local-queues overflow_moves_older_half: sends the older half to the global queue
  Header* first = buffer_[(head + half) & mask].read();
  Header* last = first;
  for (std::uint32_t i = half + 1; i < Capacity; ++i) {
    last->queue_next = buffer_[(head + i) & mask].read();
    last = last->queue_next;
  }
  //@ instead
  Header* first = buffer_[head & mask].read();
  Header* last = first;
  for (std::uint32_t i = 1; i < half; ++i) {
    last->queue_next = buffer_[(head + i) & mask].read();
    last = last->queue_next;
  }
  //@ end
  last->queue_next = task;
  task->queue_next = nullptr;
  // The older half is still in its slots: slot (tail + i) is slot
  // (head + i), since tail - head == Capacity. Handing it back is one
  // store. Release: a stealer that acquires the tail finds those tasks.
  //@ mutant local-queues overflow_drops_older_half: never hands the older half back to the ring
  //@ mutant stealing overflow_hands_back_first: (handed back already, before the claim)
  tail_.store(tail + half, std::memory_order_release);
  //@ instead
  //@ end
  //@ instead
  //@ end
  inject.push_batch(first, task, half + 1);
  return true;
  //@ starter
  // TODO: the ring is full (tail - head == Capacity) and nobody steals.
  // Move its NEWER half (the Capacity/2 most recently pushed tasks) and
  // `task` to the global queue, as one chain (linked through queue_next,
  // oldest first) in one inject.push_batch(first, last, count); keep the
  // older half in the ring, in order. Return true.
  //  - Claim the tasks first with one compare-and-swap of head_ (expect
  //    pack(head, head)); if it fails, a stealer moved the head: return
  //    false, and the caller pushes again.
  //  - Copying the older half back is not needed: which index of the
  //    ring maps to the same slot as head + i?
  // Hint: after the claim, the ring looks empty to everyone else, and
  // only this thread may publish tasks again (tail_, release).
  (void)task;
  (void)head;
  (void)tail;
  (void)inject;
  throw Todo("@NN@ overflow (@FILE@)");
  //@ end
}
//@ listing-end overflow

//@ listing pop
template <std::uint32_t Capacity>
Header* LocalQueue<Capacity>::pop() {
  //@ exercise local-queues pop
  // Acquire: pairs with a stealer's release of head_.
  std::uint64_t head = head_.load(std::memory_order_acquire);
  for (;;) {
    auto [steal, real] = unpack(head);
    // Relaxed: only this thread writes tail_.
    if (real == tail_.load(std::memory_order_relaxed)) return nullptr;
    // With a steal in progress only the real head moves: the stealer
    // still reads the slots from the steal head on, and moves it itself.
    //@ mutant local-queues pop_leaves_steal_head: moves only the real head, even when nobody steals
    std::uint64_t next = steal == real ? pack(real + 1, real + 1) : pack(steal, real + 1);
    //@ instead
    std::uint64_t next = pack(steal, real + 1);
    //@ end
    // AcqRel: acquire what a stealer released; release the slot to
    // whoever reads this head next. On failure `head` is reloaded.
    //@ mutant stealing pop_load_then_store: moves the head with a plain store, not a compare-and-swap, so a steal claimed since its load is undone and those tasks come out twice
    //@ mutant local-queues pop_relaxed: moves the head with a relaxed compare-and-swap, so a thread that reads the new head may read an older tail and count fewer than zero tasks
    if (head_.compare_exchange_weak(head, next, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return buffer_[real & mask].read();
    }
    //@ instead
    if (head_.compare_exchange_weak(head, next, std::memory_order_relaxed)) return buffer_[real & mask].read();
    //@ end
    //@ instead
    head_.store(next, std::memory_order_release);
    return buffer_[real & mask].read();
    //@ end
  }
  //@ starter
  // TODO: take the task at the real head, or return nullptr when the ring
  // is empty (real head == tail). Move the head with a compare-and-swap
  // of head_, retrying if a stealer changed it meanwhile:
  //  - nobody steals (steal head == real head): both move forward;
  //  - a steal is in progress: only the real head moves (the stealer
  //    moves its own when it is done).
  // Hint: after a successful CAS, is the slot still yours to read?
  throw Todo("@NN@ pop (@FILE@)");
  //@ end
}
//@ listing-end pop

}  // namespace rt::detail
//@ chapters stealing..

#include "rt/scheduler/multi_thread/queue_steal.hpp"
//@ end
