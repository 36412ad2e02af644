//@ file wakers..
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
#include <cstdlib>
#include <limits>

#include "rt/loom.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

//@ listing bits
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
//@ listing-end bits

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

  // A worker popped a Notified and wants to poll the task.
  TransitionToRunning transition_to_running();

  // The poll ended with the task pending.
  TransitionToIdle transition_to_idle();

  // The coroutine finished (or was cancelled): RUNNING -> COMPLETE in one
  // step. Returns the snapshot from before.
  Snapshot transition_to_complete();

  // Drops `count` references at once after completion; true when they were
  // the last, and the task must be freed.
  bool transition_to_terminal(std::size_t count);

  // wake(): the waker's reference comes with the call.
  TransitionToNotifiedByVal transition_to_notified_by_val();

  // wake_by_ref(): the waker keeps its reference.
  TransitionToNotifiedByRef transition_to_notified_by_ref();

  // abort() or the runtime's shutdown: mark CANCELLED, and if the task is
  // idle also claim it (set RUNNING) so that the caller may destroy its
  // coroutine. False when it is running (its poller will see CANCELLED)
  // or complete (nothing to cancel).
  bool transition_to_shutdown();
//@ chapters threads..

  // abort() from outside the task's poll: mark CANCELLED, and if the task
  // is idle and not queued, also NOTIFIED with a new reference: true means
  // "schedule it", and its poll will cancel it. A running task sees
  // CANCELLED when its poll ends.
  bool transition_to_notified_and_cancel();
//@ end

  // The JoinHandle asks the runtime to wake it: succeeds unless complete.
  // On failure `current` holds the snapshot that made it fail.
  bool set_join_waker(Snapshot& current);

  // The JoinHandle takes the join waker field back, to replace it: fails
  // once the task is complete (the runtime may be reading it).
  bool unset_join_waker();

  // The runtime has woken the joiner after completion and gives the field
  // back. Returns the snapshot after the change.
  Snapshot unset_waker_after_complete();

  // The common case of dropping a JoinHandle, in one CAS: a task that was
  // never polled and has no join waker.
  bool drop_join_handle_fast();

  // The JoinHandle goes away: it stops being interested in the output.
  // Says whether it must drop the join waker and the output itself.
  TransitionToJoinHandleDrop transition_to_join_handle_dropped();

  //@ listing ref_count
  // A new reference (a cloned waker). relaxed: a reference can only be
  // made from another live one, which keeps the task alive meanwhile.
  void ref_inc() {
    std::size_t previous = bits_.fetch_add(REF_ONE, std::memory_order_relaxed);
    // As Tokio: a count that wraps would free a live task; stop first.
    if (previous > std::numeric_limits<std::size_t>::max() / 2) std::abort();
  }

  // Drops one reference; true when it was the last.
  bool ref_dec() {
    // acq_rel: the last owner must see every write of the others before
    // it frees the task (release here, acquire there).
    //@ mutant wakers ref_dec_relaxed: drops a reference with a relaxed decrement, so the owner that frees the task may not see what another wrote to it before its drop
    Snapshot previous{bits_.fetch_sub(REF_ONE, std::memory_order_acq_rel)};
    //@ instead
    Snapshot previous{bits_.fetch_sub(REF_ONE, std::memory_order_relaxed)};
    //@ end
    assert(previous.ref_count() >= 1);
    return previous.ref_count() == 1;
  }
  //@ listing-end ref_count

 private:
  // One step of a CAS loop: publishes `next` if the word still holds
  // `current`, else loads the new value into `current`. acq_rel on success:
  // a transition both hands this thread's writes on and takes over the
  // previous owner's; acquire on failure: the value found is the snapshot
  // the next attempt works from.
  bool cas(Snapshot& current, Snapshot next) {
    //@ mutant wakers relaxed_cas: relaxed orders on every transition, so a poller may not see what the previous one wrote
    return bits_.compare_exchange_weak(current.bits, next.bits, std::memory_order_acq_rel,
                                       std::memory_order_acquire);
    //@ instead
    return bits_.compare_exchange_weak(current.bits, next.bits, std::memory_order_relaxed,
                                       std::memory_order_relaxed);
    //@ end
  }

  loom::atomic<std::size_t> bits_{INITIAL_STATE};
};

}  // namespace rt::detail
