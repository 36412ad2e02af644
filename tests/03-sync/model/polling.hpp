// What chapter 03's model tests wait with: a task of the test's own is a
// CountingWaker and a loop that polls a leaf future by hand, and, while it
// is pending, waits (model::yield_now) for its waker to be woken.
#pragma once

#include "counting_waker.hpp"
#include "model.hpp"
#include "rt/rt.hpp"

namespace sync_model {

// Waits until `waker` has been woken more than `seen` times. Once
// `nobody_left()` says that every thread that could wake it has ended, a
// wake-up that has not come never will: the check fails then, rather than
// the wait spinning until the checker calls it a livelock.
template <class NobodyLeft>
void wait_for_wake(const CountingWaker& waker, int seen, NobodyLeft nobody_left) {
  for (;;) {
    bool last_chance = nobody_left();  // first: a wake from a thread that ended is counted below
    if (waker.wakes() != seen) return;
    model::check(!last_chance,
                 "the task waits, and every thread that could wake it has ended without waking it: "
                 "a lost wake-up, it would wait for ever");
    model::yield_now();
  }
}

// Polls `leaf` with `waker` until it is ready, waiting for a wake-up
// after each pending poll.
template <class Leaf, class NobodyLeft>
void poll_until_ready(Leaf& leaf, const CountingWaker& waker, NobodyLeft nobody_left) {
  rt::Context cx(waker.waker());
  for (;;) {
    int seen = waker.wakes();  // before the poll: a wake during it counts
    if (leaf.poll(cx)) return;
    wait_for_wake(waker, seen, nobody_left);
  }
}

}  // namespace sync_model
