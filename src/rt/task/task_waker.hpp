//@ file wakers..
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

// Given, not an exercise: it runs in ~Waker, where an exception would end
// the program.
inline void TaskWaker::drop(const void* data) { drop_reference(task_of(data)); }

}  // namespace rt::detail
