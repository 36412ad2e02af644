//@ file wakers..
// The state word's transitions: each one CAS loop, or one atomic
// read-modify-write, on the word that holds every bit and the reference
// count. Mirrors the transition functions of Tokio's runtime/task/state.rs.
#include "rt/task/state.hpp"

namespace rt::detail {

//@ listing transition_to_running
TransitionToRunning State::transition_to_running() {
  //@ exercise wakers state
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
    //@ mutant wakers running_load_store: publishes the new word with a plain store after its load, so a waker dropped or a JoinHandle dropped in between is undone
    if (cas(current, next)) return action;
    //@ instead
    bits_.store(next.bits, std::memory_order_release);
    return action;
    //@ end
  }
  //@ starter
  // TODO: a worker took this task's Notified from a queue and wants to
  // poll it.
  // The rule: only an idle task (neither RUNNING nor COMPLETE) is polled,
  // by whoever sets RUNNING; a Notified that finds the task running or
  // finished is stale, and so is the reference it held. A wake-up that
  // comes once this poll has started must lead to one more poll.
  // The invariant: the count in the high bits is the number of references
  // that exist; whoever drops the last one frees the task.
  // Decide what each case returns (TransitionToRunning), and what it does
  // to NOTIFIED and to the count.
  // Hint: every transition is one CAS loop: load() once, change a copy,
  // publish it with cas(current, next), which refreshes `current` when
  // another thread changed the word first.
  throw Todo("@NN@ state transition_to_running (@FILE@)");
  //@ end
}
//@ listing-end transition_to_running

//@ listing transition_to_idle
TransitionToIdle State::transition_to_idle() {
  //@ exercise wakers state
  Snapshot current = load();
  for (;;) {
    assert(current.is_running());
    // Cancelled during the poll: stay RUNNING; the caller cancels it.
    //@ mutant wakers idle_ignores_cancel: ends the poll of a task aborted during it as if nothing had happened: it waits on, never cancelled
    if (current.is_cancelled()) return TransitionToIdle::Cancelled;
    //@ instead
    //@ end
    Snapshot next = current;
    next.unset(RUNNING);
    TransitionToIdle action;
    //@ mutant wakers idle_forgets_notified: ends the poll as if nobody had woken the task, so a wake during the poll is lost
    if (next.is_notified()) {
      // Woken while it ran: the poller queues it again, with a new
      // Notified reference, and only once however many wakes came.
      //@ mutant wakers idle_notified_without_ref: re-queues the task without a reference for its new Notified (one reference short)
      next.ref_inc();
      //@ instead
      //@ end
      action = TransitionToIdle::OkNotified;
    } else {
    //@ instead
    {
    //@ end
      // The poll's reference (the Notified it came from) is spent.
      next.ref_dec();
      action = next.ref_count() == 0 ? TransitionToIdle::OkDealloc : TransitionToIdle::Ok;
    }
    // acq_rel: release the frame to the next poller.
    //@ mutant wakers idle_load_store: publishes the end of the poll with a plain store after its load, so a wake that sets NOTIFIED in between is erased and lost
    if (cas(current, next)) return action;
    //@ instead
    bits_.store(next.bits, std::memory_order_release);
    return action;
    //@ end
  }
  //@ starter
  // TODO: the poll ended with the task still pending.
  // The rule: a task woken while it ran is polled again, and queued once
  // however many wakes came; a task cancelled while it ran is not made
  // idle: its poller cancels it.
  // The invariant: every queued Notified holds a reference of its own,
  // and the poll's reference (the Notified it came from) is spent when
  // the poll ends.
  // Decide what each case returns (TransitionToIdle) and how it moves the
  // count. A case that changes nothing needs no CAS.
  throw Todo("@NN@ state transition_to_idle (@FILE@)");
  //@ end
}
//@ listing-end transition_to_idle

Snapshot State::transition_to_complete() {
  // acq_rel: publish the output to the joiner; see its join waker.
  Snapshot previous{bits_.fetch_xor(RUNNING | COMPLETE, std::memory_order_acq_rel)};
  assert(previous.is_running() && !previous.is_complete());
  return previous;
}

bool State::transition_to_terminal(std::size_t count) {
  // acq_rel: whoever frees the task must see every other owner's writes.
  Snapshot previous{bits_.fetch_sub(count * REF_ONE, std::memory_order_acq_rel)};
  assert(previous.ref_count() >= count);
  return previous.ref_count() == count;
}

//@ listing transition_to_notified_by_val
TransitionToNotifiedByVal State::transition_to_notified_by_val() {
  //@ exercise wakers state
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
      //@ mutant wakers by_val_frees_early: frees the task when one reference is left after its own, not none: it frees a task another owner still holds, and leaks one whose last reference it dropped
      action = next.ref_count() == 0 ? TransitionToNotifiedByVal::Dealloc
                                     : TransitionToNotifiedByVal::DoNothing;
      //@ instead
      action = next.ref_count() == 1 ? TransitionToNotifiedByVal::Dealloc
                                     : TransitionToNotifiedByVal::DoNothing;
      //@ end
    } else {
      // Idle: a new Notified, with its own reference. The caller keeps
      // the waker's reference until it has queued the task.
      next.set(NOTIFIED);
      next.ref_inc();
      action = TransitionToNotifiedByVal::Submit;
    }
    //@ mutant wakers by_val_load_store: publishes the wake with a plain store after its load, so a racing wake or drop is erased: the task is queued twice or its count is wrong
    if (cas(current, next)) return action;
    //@ instead
    bits_.store(next.bits, std::memory_order_release);
    return action;
    //@ end
  }
  //@ starter
  // TODO: wake by value: the waker's reference comes with the call, and
  // must end up accounted for whatever the task is doing.
  // The rule: a wake queues the task only when nobody else will poll it:
  // not while it runs (its poller queues it again, if told), not once it
  // is complete, not when it is notified already. A queued Notified
  // holds a reference of its own.
  // The invariant: the count is the number of references that exist;
  // whoever drops the last one frees the task (Dealloc).
  // Decide, for each state the word can be in, which bits change, how the
  // count moves, and what the caller must do (TransitionToNotifiedByVal).
  throw Todo("@NN@ state transition_to_notified_by_val (@FILE@)");
  //@ end
}
//@ listing-end transition_to_notified_by_val

//@ listing transition_to_notified_by_ref
TransitionToNotifiedByRef State::transition_to_notified_by_ref() {
  //@ exercise wakers state
  //@ mutant wakers notified_by_ref_not_one_cas: a load, then fetch_or, then fetch_add: two racing wakers can both see it idle and both queue it
  Snapshot current = load();
  for (;;) {
    // Complete, or notified already: nothing changes, no CAS needed.
    //@ mutant wakers double_enqueue: forgets that a NOTIFIED task is queued already, and queues it again
    if (current.is_complete() || current.is_notified()) return TransitionToNotifiedByRef::DoNothing;
    //@ instead
    if (current.is_complete()) return TransitionToNotifiedByRef::DoNothing;
    //@ end
    //@ mutant wakers running_wake_lost: a RUNNING task will be polled anyway, it reasons, and sets nothing: the wake is lost
    //@ instead
    if (current.is_running()) return TransitionToNotifiedByRef::DoNothing;
    //@ end
    Snapshot next = current;
    next.set(NOTIFIED);
    TransitionToNotifiedByRef action = TransitionToNotifiedByRef::DoNothing;
    if (!next.is_running()) {
      next.ref_inc();  // the new Notified's reference
      action = TransitionToNotifiedByRef::Submit;
    }
    if (cas(current, next)) return action;
  }
  //@ instead
  Snapshot current = load();
  if (current.is_complete() || current.is_notified()) return TransitionToNotifiedByRef::DoNothing;
  bits_.fetch_or(NOTIFIED, std::memory_order_acq_rel);
  if (current.is_running()) return TransitionToNotifiedByRef::DoNothing;
  bits_.fetch_add(REF_ONE, std::memory_order_relaxed);
  return TransitionToNotifiedByRef::Submit;
  //@ end
  //@ starter
  // TODO: wake by reference: the waker keeps its reference.
  // The rule: as for a wake by value, the task is queued only when nobody
  // else will poll it, and a wake that comes during a poll still leads to
  // one more poll.
  // The invariant: of any number of wakers racing on other threads,
  // exactly one queues the task, with one new reference; so the look at
  // the word and the change to it must be one atomic step.
  // Decide which states lead to Submit, and what each one changes.
  throw Todo("@NN@ state transition_to_notified_by_ref (@FILE@)");
  //@ end
}
//@ listing-end transition_to_notified_by_ref

bool State::transition_to_shutdown() {
  Snapshot current = load();
  for (;;) {
    if (current.is_complete()) return false;
    Snapshot next = current;
    if (current.is_idle()) next.set(RUNNING);
    next.set(CANCELLED);
    if (cas(current, next)) return current.is_idle();
  }
}

//@ chapters threads..
bool State::transition_to_notified_and_cancel() {
  Snapshot current = load();
  for (;;) {
    if (current.is_cancelled() || current.is_complete()) return false;
    Snapshot next = current;
    next.set(CANCELLED);
    bool submit = false;
    if (next.is_running()) {
      next.set(NOTIFIED);  // its poller re-checks when the poll ends
    } else if (!next.is_notified()) {
      next.set(NOTIFIED);
      next.ref_inc();  // the new Notified's
      submit = true;
    }
    if (cas(current, next)) return submit;
  }
}

//@ end
bool State::set_join_waker(Snapshot& current) {
  current = load();
  for (;;) {
    assert(current.is_join_interested() && !current.is_join_waker_set());
    //@ mutant wakers join_waker_after_complete: sets JOIN_WAKER on a task that completed meanwhile, so its JoinHandle waits for a wake that has come and gone
    if (current.is_complete()) return false;
    //@ instead
    //@ end
    Snapshot next = current;
    next.set(JOIN_WAKER);
    // acq_rel: publish the waker just written to the runtime.
    if (cas(current, next)) return true;
  }
}

bool State::unset_join_waker() {
  Snapshot current = load();
  for (;;) {
    assert(current.is_join_interested());
    // COMPLETE first: once the task is complete the runtime may already
    // have woken the joiner and cleared JOIN_WAKER (as in Tokio).
    if (current.is_complete()) return false;
    assert(current.is_join_waker_set());
    Snapshot next = current;
    next.unset(JOIN_WAKER);
    if (cas(current, next)) return true;
  }
}

Snapshot State::unset_waker_after_complete() {
  // acq_rel: the JoinHandle may now drop the waker; see its JOIN_INTEREST.
  Snapshot previous{bits_.fetch_and(~JOIN_WAKER, std::memory_order_acq_rel)};
  assert(previous.is_complete() && previous.is_join_waker_set());
  return {previous.bits & ~JOIN_WAKER};
}

bool State::drop_join_handle_fast() {
  std::size_t expected = INITIAL_STATE;
  // release: nothing the JoinHandle did may move past giving it up.
  return bits_.compare_exchange_strong(expected, (INITIAL_STATE - REF_ONE) & ~JOIN_INTEREST,
                                       std::memory_order_release, std::memory_order_relaxed);
}

TransitionToJoinHandleDrop State::transition_to_join_handle_dropped() {
  Snapshot current = load();
  for (;;) {
    assert(current.is_join_interested());
    Snapshot next = current;
    next.unset(JOIN_INTEREST);
    TransitionToJoinHandleDrop action{false, false};
    // Not complete: take the join waker field back. Complete: the output
    // is ours to drop.
    //@ mutant wakers join_drop_keeps_output: a JoinHandle dropped after its task finished leaves the output in the task, to be destroyed only with its last reference
    if (!next.is_complete()) next.unset(JOIN_WAKER);
    else action.drop_output = true;
    //@ instead
    if (!next.is_complete()) next.unset(JOIN_WAKER);
    //@ end
    // JOIN_WAKER clear: the field is ours (if it is still set, the
    // runtime is waking it and will drop it).
    action.drop_waker = !next.is_join_waker_set();
    if (cas(current, next)) return action;
  }
}

}  // namespace rt::detail
