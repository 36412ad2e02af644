//@ file wakers..
// The harness's sequences of transitions, compiled once per runtime.
// Mirrors Tokio's runtime/task/harness.rs; see harness.hpp.
#include "rt/task/harness.hpp"

namespace rt::detail {

//@ listing complete
void complete(Header* task) {
  Snapshot snapshot = task->state.transition_to_complete();
  if (!snapshot.is_join_interested()) {
    // Nobody will ever join: the output is ours to destroy.
    task->vtable->drop_output(task);
  } else if (snapshot.is_join_waker_set()) {
    // JOIN_WAKER set and COMPLETE now set: the field is ours to read.
    task->join_waker.wake_by_ref();
    // Give the field back; if the JoinHandle is gone meanwhile, the waker
    // is ours to drop.
    if (!task->state.unset_waker_after_complete().is_join_interested()) task->join_waker = Waker();
  }
  // The run's own reference, plus the owned list's if this unlinked it.
  std::size_t count = task->scheduler->release(*task) ? 2 : 1;
  if (task->state.transition_to_terminal(count)) task->vtable->dealloc(task);
}

//@ listing-end complete

//@ listing poll
void poll(Header* task) {
  switch (task->state.transition_to_running()) {
    case TransitionToRunning::Success:
      break;
    case TransitionToRunning::Cancelled:
      cancel_task(task);
      complete(task);
      return;
    case TransitionToRunning::Failed:  // running or complete: a stale Notified
      return;
    case TransitionToRunning::Dealloc:
      task->vtable->dealloc(task);
      return;
  }
  // The poll lends the task's leaves a waker that borrows this call's
  // reference: no reference-count traffic unless a leaf clones it.
  WakerRef waker(raw_task_waker(task));
  Context cx(waker.get());
  if (task->poller.poll(cx)) {
    task->vtable->store_output(task);
    complete(task);
    return;
  }
  switch (task->state.transition_to_idle()) {
    case TransitionToIdle::Ok:
      return;
    case TransitionToIdle::OkNotified:
      // Woken during the poll: queue it again, at the back (Tokio's
      // yield_now), then give up the poll's reference.
//@ chapters threads..
      task->scheduler->yield_now(task);
//@ else
      task->scheduler->schedule(task);
//@ end
      drop_reference(task);
      return;
    case TransitionToIdle::OkDealloc:
      task->vtable->dealloc(task);
      return;
    case TransitionToIdle::Cancelled:
      cancel_task(task);
      complete(task);
      return;
  }
}

//@ listing-end poll

//@ listing shutdown
void shutdown(Header* task) {
  if (!task->state.transition_to_shutdown()) {
    drop_reference(task);  // running (it sees CANCELLED) or complete already
    return;
  }
  // RUNNING is ours, as for a poll: the coroutine may be destroyed, and
  // this call's reference is the run's.
  cancel_task(task);
  complete(task);
}

//@ listing-end shutdown

//@ listing abort
void abort_task(Header* task) {
  //@ exercise wakers abort
  // shutdown() consumes a reference: lend it a new one.
  //@ mutant wakers abort_takes_handles_ref: lets shutdown() consume the JoinHandle's reference (one reference short)
  task->state.ref_inc();
  //@ instead
  //@ end
  shutdown(task);
  //@ starter
  // TODO: cancel the task: at once if it is idle (destroy its coroutine,
  // store "cancelled", complete it), at the end of its poll if it is
  // running, not at all if it is complete.
  // Hint: shutdown() above does exactly that, but it consumes a reference,
  // and the JoinHandle's must stay with the JoinHandle.
  (void)task;
  throw Todo("@NN@ abort (@FILE@)");
  //@ end
}

//@ listing-end abort

//@ chapters threads..
//@ listing remote_abort
void remote_abort(Header* task) {
  // Marks it CANCELLED and, if it is idle, queues it: a worker cancels it
  // as it would poll it. No coroutine is destroyed on this thread, which
  // may be in the middle of another task's poll.
  if (task->state.transition_to_notified_and_cancel()) task->scheduler->schedule(task);
}
//@ listing-end remote_abort

//@ end
//@ listing join
bool poll_join(Header* task, const Waker& waker) {
  Snapshot snapshot = task->state.load();
  if (snapshot.is_complete()) return true;
  if (snapshot.is_join_waker_set()) {
    if (task->join_waker.will_wake(waker)) return false;  // the same waker: done
    // Take the field back to replace it; that fails once complete.
    if (!task->state.unset_join_waker()) return true;
  }
  // JOIN_WAKER clear: the field is the JoinHandle's to write.
  task->join_waker = waker;
  //@ mutant wakers poll_join_ignores_late_complete: stores the waker and waits, whether or not the task completed since the JoinHandle looked
  if (!task->state.set_join_waker(snapshot)) {
    task->join_waker = Waker();  // completed meanwhile: read the output now
    return true;
  }
  return false;
  //@ instead
  task->state.set_join_waker(snapshot);
  return false;
  //@ end
}

void drop_join_handle(Header* task) {
  if (task->state.drop_join_handle_fast()) return;
  TransitionToJoinHandleDrop action = task->state.transition_to_join_handle_dropped();
  if (action.drop_output) task->vtable->drop_output(task);
  if (action.drop_waker) task->join_waker = Waker();
  drop_reference(task);
}

//@ listing-end join

}  // namespace rt::detail
