//@ file stealing..
// LocalQueue's steal half: another worker takes half of a ring's tasks at
// once, claiming them with the steal head (queue.hpp says how the two
// heads work). Mirrors steal_into and steal_into2 in Tokio's
// runtime/scheduler/multi_thread/queue.rs.
#pragma once

#include <atomic>
#include <cstdint>

#include "rt/loom.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"

namespace rt::detail {

// Called, when set, by a stealer between claiming its tasks and releasing
// its claim: lets a test act while a steal is in progress.
inline loom::atomic<void (*)()> during_steal{nullptr};
// Called, when set, by a stealer before each compare-and-swap that claims
// tasks: lets a test make that claim fail, as another stealer would.
inline loom::atomic<void (*)()> before_steal_claim{nullptr};
// Called, when set, at the start of every steal_into, with the victim's
// ring: lets a test see which rings a searching worker tries, in order.
inline loom::atomic<void (*)(const void* victim)> on_steal_attempt{nullptr};

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
  Header* task = dst.buffer_[(dst_tail + n - 1) & mask].read();
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
    //@ mutant stealing steal_claims_both_heads: claims by moving the steal head along with the real head, so nothing keeps the owner off the slots it is still copying
    next = pack(steal, real + n);
    //@ instead
    next = pack(real + n, real + n);
    //@ end
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
    dst.buffer_[(dst_tail + i) & mask].write(buffer_[(first + i) & mask].read());
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
    //@ mutant stealing steal_release_relaxed: releases its claim with a relaxed compare-and-swap, so the owner may overwrite a slot before the copy out of it is done
    if (head_.compare_exchange_weak(prev, pack(real, real), std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      return n;
    }
    //@ instead
    if (head_.compare_exchange_weak(prev, pack(real, real), std::memory_order_relaxed)) return n;
    //@ end
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

}  // namespace rt::detail
