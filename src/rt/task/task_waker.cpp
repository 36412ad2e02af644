//@ file wakers..
// The task waker's functions, compiled once per runtime. Mirrors Tokio's
// runtime/task/waker.rs; see task_waker.hpp.
#include "rt/task/task_waker.hpp"

namespace rt::detail {

//@ listing task_waker
RawWaker TaskWaker::clone(const void* data) {
  //@ exercise wakers waker
  task_of(data)->state.ref_inc();
  return {data, &vtable};
  //@ starter
  // TODO: a clone is one more reference to the task: add it to the state
  // word, and return a RawWaker with the same data and table.
  // Hint: State::ref_inc.
  (void)data;
  throw Todo("@NN@ waker clone (@FILE@)");
  //@ end
}

void TaskWaker::wake(const void* data) {
  //@ exercise wakers waker
  Header* task = task_of(data);
  switch (task->state.transition_to_notified_by_val()) {
    case TransitionToNotifiedByVal::Submit:
      // Two references now: the new Notified's, handed to the scheduler,
      // and this waker's, dropped only afterwards so that the task cannot
      // be freed while schedule() still looks at it.
      task->scheduler->schedule(task);
      drop_reference(task);
      return;
    case TransitionToNotifiedByVal::Dealloc:
      //@ mutant wakers by_val_wake_never_frees: a wake by value that drops the last reference does not free the task (a leak)
      task->vtable->dealloc(task);
      //@ instead
      //@ end
      return;
    case TransitionToNotifiedByVal::DoNothing:
      return;
  }
  //@ starter
  // TODO: wake by value: this call owns the waker's reference. Ask the
  // state word (transition_to_notified_by_val) and do what it says:
  //  - Submit: queue the task (task->scheduler->schedule(task) takes the
  //    new Notified's reference), then drop the waker's reference;
  //  - Dealloc: the waker's reference was the last: free the task
  //    (task->vtable->dealloc);
  //  - DoNothing: nothing.
  // Hint: why drop the waker's reference only after schedule()?
  (void)data;
  throw Todo("@NN@ waker wake (@FILE@)");
  //@ end
}

void TaskWaker::wake_by_ref(const void* data) {
  //@ exercise wakers waker
  Header* task = task_of(data);
  if (task->state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::Submit) {
    task->scheduler->schedule(task);  // with the Notified's new reference
  }
  //@ starter
  // TODO: wake by reference: the waker keeps its reference. Ask the state
  // word (transition_to_notified_by_ref) and, on Submit, queue the task:
  // task->scheduler->schedule(task) takes the new Notified's reference.
  (void)data;
  throw Todo("@NN@ waker wake_by_ref (@FILE@)");
  //@ end
}

//@ listing-end task_waker

}  // namespace rt::detail
