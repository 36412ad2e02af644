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

#include "rt/scheduler/inject.hpp"
#include "rt/task/header.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

//@ chapters stealing..
// Called, when set, by a stealer between claiming its tasks and releasing
// its claim: lets a test act while a steal is in progress.
inline std::atomic<void (*)()> during_steal{nullptr};
// Called, when set, by a stealer before each compare-and-swap that claims
// tasks: lets a test make that claim fail, as another stealer would.
inline std::atomic<void (*)()> before_steal_claim{nullptr};
// Called, when set, at the start of every steal_into, with the victim's
// ring: lets a test see which rings a searching worker tries, in order.
inline std::atomic<void (*)(const void* victim)> on_steal_attempt{nullptr};

//@ end
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

//@ chapters stealing..
  // Another worker's: moves about half of this ring's tasks into `dst`,
  // the caller's own ring, and returns one of them to run now; nullptr
  // when there is nothing to steal, another steal is in progress, or dst
  // is more than half full. `stolen` is set to how many tasks it took.
  Header* steal_into(LocalQueue& dst, std::uint32_t& stolen);

//@ end
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

//@ chapters stealing..
  // Claims and copies the tasks to steal into dst's slots from dst_tail
  // on, without publishing them; returns how many.
  std::uint32_t steal_into2(LocalQueue& dst, std::uint32_t dst_tail);

//@ end
  std::atomic<std::uint64_t> head_;
  std::atomic<std::uint32_t> tail_;
  // Plain pointers: the indices decide who may touch a slot, and the
  // acquire and release on them order the slot's write before its read.
  std::array<Header*, Capacity> buffer_{};
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
      buffer_[tail & mask] = task;
      // Release: whoever acquires the new tail (a stealer) finds the
      // task in its slot.
      //@ mutant stealing push_relaxed_tail: publishes the new tail with a relaxed store, so a stealer may read the slot before the task is in it
      tail_.store(tail + 1, std::memory_order_release);
      //@ instead
      tail_.store(tail + 1, std::memory_order_relaxed);
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
  std::uint64_t expected = pack(head, head);
  if (!head_.compare_exchange_strong(expected, pack(tail, tail), std::memory_order_release,
                                     std::memory_order_relaxed)) {
    return false;
  }
  // The newer half (head + half .. tail) and the new task become one chain.
  //@ mutant local-queues overflow_moves_older_half: sends the older half to the global queue
  Header* first = buffer_[(head + half) & mask];
  Header* last = first;
  for (std::uint32_t i = half + 1; i < Capacity; ++i) {
    last->queue_next = buffer_[(head + i) & mask];
    last = last->queue_next;
  }
  //@ instead
  Header* first = buffer_[head & mask];
  Header* last = first;
  for (std::uint32_t i = 1; i < half; ++i) {
    last->queue_next = buffer_[(head + i) & mask];
    last = last->queue_next;
  }
  //@ end
  last->queue_next = task;
  task->queue_next = nullptr;
  // The older half is still in its slots: slot (tail + i) is slot
  // (head + i), since tail - head == Capacity. Handing it back is one
  // store. Release: a stealer that acquires the tail finds those tasks.
  //@ mutant local-queues overflow_drops_older_half: never hands the older half back to the ring
  tail_.store(tail + half, std::memory_order_release);
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
    if (head_.compare_exchange_weak(head, next, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return buffer_[real & mask];
    }
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
//@ chapters stealing..

//@ listing steal
template <std::uint32_t Capacity>
Header* LocalQueue<Capacity>::steal_into(LocalQueue& dst, std::uint32_t& stolen) {
  stolen = 0;
  if (auto hook = on_steal_attempt.load(std::memory_order_acquire)) hook(this);
  // Relaxed: the caller owns dst and is the only writer of its tail.
  std::uint32_t dst_tail = dst.tail_.load(std::memory_order_relaxed);
  // Acquire: pairs with dst's stealers' release: their slots are free.
  auto [dst_steal, dst_real] = unpack(dst.head_.load(std::memory_order_acquire));
  (void)dst_real;
  // A worker with half a ring of its own has enough to do.
  if (dst_tail - dst_steal > Capacity / 2) return nullptr;
  std::uint32_t n = steal_into2(dst, dst_tail);
  if (n == 0) return nullptr;
  stolen = n;
  // The last task copied runs now; the others are published to dst's
  // stealers. Release: whoever acquires dst's tail finds them.
  Header* task = dst.buffer_[(dst_tail + n - 1) & mask];
  if (n > 1) dst.tail_.store(dst_tail + n - 1, std::memory_order_release);
  return task;
}

template <std::uint32_t Capacity>
std::uint32_t LocalQueue<Capacity>::steal_into2(LocalQueue& dst, std::uint32_t dst_tail) {
  //@ exercise stealing steal
  // 1. Claim: move the real head past half of the tasks, leaving the
  //    steal head where it is, which keeps every other stealer out.
  std::uint64_t prev = head_.load(std::memory_order_acquire);  // pairs with pop's release
  std::uint64_t next = 0;
  std::uint32_t n = 0;
  //@ mutant stealing steal_checks_once: looks for a steal in progress once, before the first claim, not again when a claim fails
  //@ instead
  if (auto [steal, real] = unpack(prev); steal != real) return 0;
  //@ end
  for (;;) {
    auto [steal, real] = unpack(prev);
    // On every try: a failed claim may have lost to another stealer.
    //@ mutant stealing steal_while_stealing: steals even while another steal is in progress
    //@ mutant stealing steal_checks_once: (no look here, on the retries)
    if (steal != real) return 0;  // another steal is in progress
    //@ instead
    //@ end
    //@ instead
    //@ end
    // Acquire: pairs with the owner's release of tail_: the slots are written.
    //@ mutant stealing steal_relaxed_tail: reads the owner's tail relaxed, so it may copy a slot before the task is in it
    std::uint32_t available = tail_.load(std::memory_order_acquire) - real;
    //@ instead
    std::uint32_t available = tail_.load(std::memory_order_relaxed) - real;
    //@ end
    //@ mutant stealing steal_everything: takes every task instead of half
    n = available - available / 2;  // half, rounded up
    //@ instead
    n = available;
    //@ end
    if (n == 0) return 0;
    next = pack(steal, real + n);
    if (auto hook = before_steal_claim.load(std::memory_order_acquire)) hook();
    // AcqRel: acquire the owner's latest pops; release our claim. On
    // failure (the owner popped, or another stealer won) `prev` reloads.
    if (head_.compare_exchange_weak(prev, next, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      break;
    }
  }
  if (auto hook = during_steal.load(std::memory_order_acquire)) hook();
  // 2. Copy: the claimed slots are ours to read until we release them.
  auto [first, claimed_end] = unpack(next);
  (void)claimed_end;
  for (std::uint32_t i = 0; i < n; ++i) {
    dst.buffer_[(dst_tail + i) & mask] = buffer_[(first + i) & mask];
  }
  // 3. Release: the steal head catches up with the real head, which the
  //    owner may have moved meanwhile by popping, so retry until it holds.
  prev = next;
  for (;;) {
    auto [steal, real] = unpack(prev);
    (void)steal;
    // AcqRel: release the slots to the owner, who acquires head_ before
    // it overwrites them.
    //@ mutant stealing steal_release_by_store: releases its claim with a plain store, undoing the owner's pops meanwhile
    if (head_.compare_exchange_weak(prev, pack(real, real), std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return n;
    }
    //@ instead
    head_.store(pack(real, real), std::memory_order_release);
    return n;
    //@ end
  }
  //@ starter
  // TODO: steal half of this ring's tasks (rounded up: 5 available, 3
  // stolen) into dst's slots from dst_tail on, and return how many; 0
  // when there is nothing, or when another steal is in progress (steal
  // head != real head). Do not publish them: steal_into does.
  //  1. Claim with a compare-and-swap of head_ that moves only the real
  //     head past the tasks you take; the steal head staying behind is
  //     what keeps other stealers out and the owner from overwriting them.
  //  2. Copy the claimed tasks into dst's buffer_.
  //  3. Release: make the steal head equal to the real head again, with a
  //     compare-and-swap (the owner may pop meanwhile, moving the real head).
  // Call the test hooks, if set: before_steal_claim just before each
  // compare-and-swap of step 1, during_steal between 1 and 2.
  // Hint: a claim that fails has lost the ring to someone: look at both
  // heads afresh before you try again.
  // Hint: which orderings make the owner's slot writes visible to you,
  // and your reads finished before the owner overwrites the slots?
  (void)dst;
  (void)dst_tail;
  throw Todo("@NN@ steal (@FILE@)");
  //@ end
}
//@ listing-end steal
//@ end

}  // namespace rt::detail
