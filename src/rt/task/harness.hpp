//@ file wakers..
// The harness: what the runtime does to a task, as sequences of state
// transitions. Mirrors Tokio's runtime/task/harness.rs.
//
// Every function here works on a Header*, whatever the task's type; the
// typed work (storing the output, freeing the cell) goes through the
// task's vtable.
#pragma once

#include "rt/task/header.hpp"
#include "rt/task/state.hpp"
#include "rt/task/task_waker.hpp"
#include "rt/task/waker.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// The coroutine has finished or been cancelled, and its output is stored:
// tell the JoinHandle, and give up the references the run held.
void complete(Header* task);

inline void cancel_task(Header* task) { task->vtable->cancel(task); }

// Polls the task once, for the Notified just taken from the run queue
// (this call owns that reference).
void poll(Header* task);

// Cancels the task now if it is idle; a running task cancels itself when
// its poll ends. Consumes one reference: at runtime shutdown, the owned
// list's.
void shutdown(Header* task);

// JoinHandle::abort. The JoinHandle's own reference stays with it.
void abort_task(Header* task);
//@ chapters threads..

// JoinHandle::abort from chapter 04 on, as Tokio's: the cancellation goes
// through the scheduler, which cancels the task where it runs its tasks.
void remote_abort(Header* task);
//@ end

// The JoinHandle's poll: true when the output can be read; otherwise the
// joiner's waker is left with the task. Tokio's can_read_output.
bool poll_join(Header* task, const Waker& waker);

// The JoinHandle goes away (detaches, if the task is still running).
void drop_join_handle(Header* task);

}  // namespace rt::detail
