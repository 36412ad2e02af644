//@ file 2-
// State: the one atomic word that says where a task is in its life, and how
// many references to it exist. Mirrors Tokio's runtime/task/state.rs.
//
//   bit  0  RUNNING        a thread is polling the task (or cancelling it)
//   bit  1  COMPLETE       the coroutine is gone; the output is stored
//   bit  2  NOTIFIED       a Notified reference exists (queued, or will be)
//   bit  3  JOIN_INTEREST  a JoinHandle still exists
//   bit  4  JOIN_WAKER     the join waker field belongs to the runtime
//   bit  5  CANCELLED      abort() or shutdown asked the task to stop
//   bits 6+                the reference count, in units of REF_ONE
//
// Every transition is one compare-and-swap loop on this word, so that each
// thread sees one consistent snapshot of all the bits at once: "is it
// running, and was it notified, and how many references are left" is one
// question with one answer.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>

#include "rt/todo.hpp"

namespace rt::detail {

// ANCHOR: bits
inline constexpr std::size_t RUNNING = 1 << 0;
inline constexpr std::size_t COMPLETE = 1 << 1;
inline constexpr std::size_t NOTIFIED = 1 << 2;
inline constexpr std::size_t JOIN_INTEREST = 1 << 3;
inline constexpr std::size_t JOIN_WAKER = 1 << 4;
inline constexpr std::size_t CANCELLED = 1 << 5;

inline constexpr std::size_t REF_COUNT_SHIFT = 6;
inline constexpr std::size_t REF_ONE = std::size_t{1} << REF_COUNT_SHIFT;

// A new task has three references: the runtime's list of owned tasks, the
// Notified in the run queue, and the JoinHandle.
inline constexpr std::size_t INITIAL_STATE = 3 * REF_ONE | JOIN_INTEREST | NOTIFIED;
// ANCHOR_END: bits

// A copy of the word, to look at and to change before a CAS publishes it.
struct Snapshot {
  std::size_t bits;

  bool is_running() const { return bits & RUNNING; }
  bool is_complete() const { return bits & COMPLETE; }
  bool is_idle() const { return !(bits & (RUNNING | COMPLETE)); }
  bool is_notified() const { return bits & NOTIFIED; }
  bool is_join_interested() const { return bits & JOIN_INTEREST; }
  bool is_join_waker_set() const { return bits & JOIN_WAKER; }
  bool is_cancelled() const { return bits & CANCELLED; }
  std::size_t ref_count() const { return bits >> REF_COUNT_SHIFT; }

  void set(std::size_t flag) { bits |= flag; }
  void unset(std::size_t flag) { bits &= ~flag; }
  void ref_inc() { bits += REF_ONE; }
  void ref_dec() {
    assert(ref_count() > 0);
    bits -= REF_ONE;
  }
};

// What the caller must do after each transition.
enum class TransitionToRunning { Success, Cancelled, Failed, Dealloc };
enum class TransitionToIdle { Ok, OkNotified, OkDealloc, Cancelled };
enum class TransitionToNotifiedByVal { DoNothing, Submit, Dealloc };
enum class TransitionToNotifiedByRef { DoNothing, Submit };
struct TransitionToJoinHandleDrop {
  bool drop_waker;
  bool drop_output;
};

class State {
 public:
  // The memory orders follow Tokio's: a transition that hands the task to
  // another thread (or takes it from one) is acq_rel, so that whatever the
  // last owner wrote to the coroutine frame or the output is visible to the
  // next one.
  Snapshot load() const { return {bits_.load(std::memory_order_acquire)}; }

  // ANCHOR: transition_to_running
  // A worker popped a Notified and wants to poll the task.
  TransitionToRunning transition_to_running() {
    //@ exercise 2 state
    Snapshot current = load();
    for (;;) {
      assert(current.is_notified());
      Snapshot next = current;
      TransitionToRunning action;
      if (!next.is_idle()) {
        // Running elsewhere, or already complete (cancelled at shutdown,
        // say): this Notified is stale. Give up its reference.
        next.ref_dec();
        action = next.ref_count() == 0 ? TransitionToRunning::Dealloc : TransitionToRunning::Failed;
      } else {
        // Idle: take it. Clearing NOTIFIED first means a wake that comes
        // during the poll sets it again, and is not lost.
        next.set(RUNNING);
        next.unset(NOTIFIED);
        action = next.is_cancelled() ? TransitionToRunning::Cancelled : TransitionToRunning::Success;
      }
      // acq_rel: acquire what the previous poll wrote to the frame.
      if (cas(current, next)) return action;
    }
    //@ starter
    // TODO: move an idle task to RUNNING, in one CAS loop:
    //  - not idle (RUNNING or COMPLETE set): the Notified is stale; drop
    //    its reference and return Failed, or Dealloc if it was the last;
    //  - idle: set RUNNING, clear NOTIFIED, and return Cancelled if the
    //    CANCELLED bit is set, else Success.
    // Hint: load() once, then build `next` from a copy of the snapshot and
    // publish it with cas(current, next); cas refreshes `current` when it
    // fails, so loop until it succeeds.
    throw Todo("02 state transition_to_running (rt/task/state.hpp)");
    //@ end
  }
  // ANCHOR_END: transition_to_running

  // ANCHOR: transition_to_idle
  // The poll ended with the task pending.
  TransitionToIdle transition_to_idle() {
    //@ exercise 2 state
    Snapshot current = load();
    for (;;) {
      assert(current.is_running());
      // Cancelled during the poll: stay RUNNING; the caller cancels it.
      if (current.is_cancelled()) return TransitionToIdle::Cancelled;
      Snapshot next = current;
      next.unset(RUNNING);
      TransitionToIdle action;
      if (next.is_notified()) {
        // Woken while it ran: the poller queues it again, with a new
        // Notified reference, and only once however many wakes came.
        next.ref_inc();
        action = TransitionToIdle::OkNotified;
      } else {
        // The poll's reference (the Notified it came from) is spent.
        next.ref_dec();
        action = next.ref_count() == 0 ? TransitionToIdle::OkDealloc : TransitionToIdle::Ok;
      }
      // acq_rel: release the frame to the next poller.
      if (cas(current, next)) return action;
    }
    //@ starter
    // TODO: end a poll that left the task pending, in one CAS loop:
    //  - CANCELLED set: change nothing, return Cancelled (the caller
    //    cancels the task; it stays RUNNING meanwhile);
    //  - else clear RUNNING, and if NOTIFIED is set (woken during the poll)
    //    add a reference for the new Notified and return OkNotified;
    //  - else drop the poll's reference: Ok, or OkDealloc if it was the last.
    // Hint: the shape of transition_to_running; a branch that changes
    // nothing can return without a CAS.
    throw Todo("02 state transition_to_idle (rt/task/state.hpp)");
    //@ end
  }
  // ANCHOR_END: transition_to_idle

  // The coroutine finished (or was cancelled): RUNNING -> COMPLETE in one
  // step. Returns the snapshot from before.
  Snapshot transition_to_complete() {
    // acq_rel: publish the output to the joiner; see its join waker.
    Snapshot previous{bits_.fetch_xor(RUNNING | COMPLETE, std::memory_order_acq_rel)};
    assert(previous.is_running() && !previous.is_complete());
    return previous;
  }

  // Drops `count` references at once after completion; true when they were
  // the last, and the task must be freed.
  bool transition_to_terminal(std::size_t count) {
    // acq_rel: whoever frees the task must see every other owner's writes.
    Snapshot previous{bits_.fetch_sub(count * REF_ONE, std::memory_order_acq_rel)};
    assert(previous.ref_count() >= count);
    return previous.ref_count() == count;
  }

  // ANCHOR: transition_to_notified_by_val
  // wake(): the waker's reference comes with the call.
  TransitionToNotifiedByVal transition_to_notified_by_val() {
    //@ exercise 2 state
    Snapshot current = load();
    for (;;) {
      Snapshot next = current;
      TransitionToNotifiedByVal action;
      if (next.is_running()) {
        // The poller will queue it when its poll ends; the waker's
        // reference is not needed (the poller holds one).
        next.set(NOTIFIED);
        next.ref_dec();
        assert(next.ref_count() > 0);
        action = TransitionToNotifiedByVal::DoNothing;
      } else if (next.is_complete() || next.is_notified()) {
        // Nothing to do but drop the waker's reference.
        next.ref_dec();
        action = next.ref_count() == 0 ? TransitionToNotifiedByVal::Dealloc
                                       : TransitionToNotifiedByVal::DoNothing;
      } else {
        // Idle: a new Notified, with its own reference. The caller keeps
        // the waker's reference until it has queued the task.
        next.set(NOTIFIED);
        next.ref_inc();
        action = TransitionToNotifiedByVal::Submit;
      }
      if (cas(current, next)) return action;
    }
    //@ starter
    // TODO: wake by value, in one CAS loop. The waker's reference comes
    // with the call:
    //  - RUNNING: set NOTIFIED and drop the waker's reference (DoNothing:
    //    the poller queues the task when its poll ends);
    //  - COMPLETE or already NOTIFIED: only drop the waker's reference
    //    (DoNothing, or Dealloc if it was the last);
    //  - idle: set NOTIFIED and add a reference for the new Notified
    //    (Submit; the caller drops the waker's reference after queueing).
    // Hint: a reference is REF_ONE in the word: Snapshot::ref_inc/ref_dec.
    throw Todo("02 state transition_to_notified_by_val (rt/task/state.hpp)");
    //@ end
  }
  // ANCHOR_END: transition_to_notified_by_val

  // ANCHOR: transition_to_notified_by_ref
  // wake_by_ref(): the waker keeps its reference.
  TransitionToNotifiedByRef transition_to_notified_by_ref() {
    //@ exercise 2 state
    Snapshot current = load();
    for (;;) {
      // Complete, or notified already: nothing changes, no CAS needed.
      if (current.is_complete() || current.is_notified()) return TransitionToNotifiedByRef::DoNothing;
      Snapshot next = current;
      next.set(NOTIFIED);
      TransitionToNotifiedByRef action = TransitionToNotifiedByRef::DoNothing;
      if (!next.is_running()) {
        next.ref_inc();  // the new Notified's reference
        action = TransitionToNotifiedByRef::Submit;
      }
      if (cas(current, next)) return action;
    }
    //@ starter
    // TODO: wake by reference, in one CAS loop. The waker keeps its
    // reference, so the count changes only when a Notified is created:
    //  - COMPLETE or already NOTIFIED: DoNothing (no CAS needed);
    //  - RUNNING: set NOTIFIED, DoNothing (the poller re-queues it);
    //  - idle: set NOTIFIED, add a reference, Submit.
    // Hint: exactly one of many racing wakers can see "idle and not
    // notified" and win the CAS: that is why a task is queued only once.
    throw Todo("02 state transition_to_notified_by_ref (rt/task/state.hpp)");
    //@ end
  }
  // ANCHOR_END: transition_to_notified_by_ref

  // abort() or the runtime's shutdown: mark CANCELLED, and if the task is
  // idle also claim it (set RUNNING) so that the caller may destroy its
  // coroutine. False when it is running (its poller will see CANCELLED)
  // or complete (nothing to cancel).
  bool transition_to_shutdown() {
    Snapshot current = load();
    for (;;) {
      if (current.is_complete()) return false;
      Snapshot next = current;
      if (current.is_idle()) next.set(RUNNING);
      next.set(CANCELLED);
      if (cas(current, next)) return current.is_idle();
    }
  }

  // The JoinHandle asks the runtime to wake it: succeeds unless complete.
  // On failure `current` holds the snapshot that made it fail.
  bool set_join_waker(Snapshot& current) {
    current = load();
    for (;;) {
      assert(current.is_join_interested() && !current.is_join_waker_set());
      if (current.is_complete()) return false;
      Snapshot next = current;
      next.set(JOIN_WAKER);
      // acq_rel: publish the waker just written to the runtime.
      if (cas(current, next)) return true;
    }
  }

  // The JoinHandle takes the join waker field back, to replace it: fails
  // once the task is complete (the runtime may be reading it).
  bool unset_join_waker() {
    Snapshot current = load();
    for (;;) {
      assert(current.is_join_interested() && current.is_join_waker_set());
      if (current.is_complete()) return false;
      Snapshot next = current;
      next.unset(JOIN_WAKER);
      if (cas(current, next)) return true;
    }
  }

  // The runtime has woken the joiner after completion and gives the field
  // back. Returns the snapshot after the change.
  Snapshot unset_waker_after_complete() {
    // acq_rel: the JoinHandle may now drop the waker; see its JOIN_INTEREST.
    Snapshot previous{bits_.fetch_and(~JOIN_WAKER, std::memory_order_acq_rel)};
    assert(previous.is_complete() && previous.is_join_waker_set());
    return {previous.bits & ~JOIN_WAKER};
  }

  // The common case of dropping a JoinHandle, in one CAS: a task that was
  // never polled and has no join waker.
  bool drop_join_handle_fast() {
    std::size_t expected = INITIAL_STATE;
    // release: nothing the JoinHandle did may move past giving it up.
    return bits_.compare_exchange_strong(expected, (INITIAL_STATE - REF_ONE) & ~JOIN_INTEREST,
                                         std::memory_order_release, std::memory_order_relaxed);
  }

  // The JoinHandle goes away: it stops being interested in the output.
  // Says whether it must drop the join waker and the output itself.
  TransitionToJoinHandleDrop transition_to_join_handle_dropped() {
    Snapshot current = load();
    for (;;) {
      assert(current.is_join_interested());
      Snapshot next = current;
      next.unset(JOIN_INTEREST);
      TransitionToJoinHandleDrop action{false, false};
      // Not complete: take the join waker field back. Complete: the output
      // is ours to drop.
      if (!next.is_complete()) next.unset(JOIN_WAKER);
      else action.drop_output = true;
      // JOIN_WAKER clear: the field is ours (if it is still set, the
      // runtime is waking it and will drop it).
      action.drop_waker = !next.is_join_waker_set();
      if (cas(current, next)) return action;
    }
  }

  // ANCHOR: ref_count
  // A new reference (a cloned waker). relaxed: a reference can only be
  // made from another live one, which keeps the task alive meanwhile.
  void ref_inc() { bits_.fetch_add(REF_ONE, std::memory_order_relaxed); }

  // Drops one reference; true when it was the last.
  bool ref_dec() {
    // acq_rel: the last owner must see every write of the others before
    // it frees the task (release here, acquire there).
    Snapshot previous{bits_.fetch_sub(REF_ONE, std::memory_order_acq_rel)};
    assert(previous.ref_count() >= 1);
    return previous.ref_count() == 1;
  }
  // ANCHOR_END: ref_count

 private:
  // One step of a CAS loop: publishes `next` if the word still holds
  // `current`, else loads the new value into `current`. acq_rel on success:
  // a transition both hands this thread's writes on and takes over the
  // previous owner's; acquire on failure: the value found is the snapshot
  // the next attempt works from.
  bool cas(Snapshot& current, Snapshot next) {
    return bits_.compare_exchange_weak(current.bits, next.bits, std::memory_order_acq_rel,
                                       std::memory_order_acquire);
  }

  std::atomic<std::size_t> bits_{INITIAL_STATE};
};

}  // namespace rt::detail
