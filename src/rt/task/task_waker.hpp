//@ file 2-
// The waker of a spawned task: a RawWaker whose data pointer is the task's
// header and whose table is TaskWaker::vtable. Mirrors Tokio's
// runtime/task/waker.rs and the wake functions of harness.rs.
//
// Each Waker for a task is one reference in the task's state word: clone
// adds one, drop removes one, wake uses its own up, and wake_by_ref only
// adds one when it creates a Notified for the run queue.
#pragma once

#include "rt/task/header.hpp"
#include "rt/task/state.hpp"
#include "rt/task/waker.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// ANCHOR: task_waker
struct TaskWaker {
  static RawWaker clone(const void* data);
  static void wake(const void* data);
  static void wake_by_ref(const void* data);
  static void drop(const void* data);

  static constexpr RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  // The waker functions only get a `const void*`: the task they wake.
  static Header* task_of(const void* data) { return static_cast<Header*>(const_cast<void*>(data)); }
};

// A new waker for `task`, without a reference of its own: for a poll's
// WakerRef, which borrows the poll's reference.
inline RawWaker raw_task_waker(Header* task) { return {task, &TaskWaker::vtable}; }

inline RawWaker TaskWaker::clone(const void* data) {
  //@ exercise 2 waker
  task_of(data)->state.ref_inc();
  return {data, &vtable};
  //@ starter
  // TODO: a clone is one more reference to the task: add it to the state
  // word, and return a RawWaker with the same data and table.
  // Hint: State::ref_inc.
  (void)data;
  throw Todo("02 waker clone (rt/task/task_waker.hpp)");
  //@ end
}

inline void TaskWaker::wake(const void* data) {
  //@ exercise 2 waker
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
      task->vtable->dealloc(task);
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
  throw Todo("02 waker wake (rt/task/task_waker.hpp)");
  //@ end
}

inline void TaskWaker::wake_by_ref(const void* data) {
  //@ exercise 2 waker
  Header* task = task_of(data);
  if (task->state.transition_to_notified_by_ref() == TransitionToNotifiedByRef::Submit) {
    task->scheduler->schedule(task);  // with the Notified's new reference
  }
  //@ starter
  // TODO: wake by reference: the waker keeps its reference. Ask the state
  // word (transition_to_notified_by_ref) and, on Submit, queue the task:
  // task->scheduler->schedule(task) takes the new Notified's reference.
  (void)data;
  throw Todo("02 waker wake_by_ref (rt/task/task_waker.hpp)");
  //@ end
}

// Given, not an exercise: it runs in ~Waker, where an exception would end
// the program.
inline void TaskWaker::drop(const void* data) { drop_reference(task_of(data)); }
// ANCHOR_END: task_waker

}  // namespace rt::detail
