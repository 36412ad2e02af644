//@ file wakers..
// Header: the part of a task that is the same whatever its coroutine
// returns. Mirrors the Header of Tokio's task cell (runtime/task/core.rs).
//
// Wakers, run queues and the list of owned tasks hold a Header*, and a
// task's typed operations (storing its output, freeing it) are reached
// through the vtable in it, so none of them needs to know the task's type.
#pragma once

#include <coroutine>
#include <memory>
#include <utility>

#include "rt/task/poll.hpp"
#include "rt/task/state.hpp"
#include "rt/task/waker.hpp"

namespace rt::detail {

struct Header;

// The scheduler, as a task sees it.
class Schedule {
 public:
  // The task was woken: queue it. Takes over a Notified reference.
  virtual void schedule(Header* task) = 0;
  // The task completed: unlink it from the owned tasks. True when it was
  // still linked, which hands back the list's reference.
  virtual bool release(Header& task) = 0;
//@ chapters threads..
  // The task was woken during its own poll (by yield_now, say) and is
  // queued again as the poll ends: the back of the queue. Tokio's
  // Schedule::yield_now; chapter 07's LIFO slot is skipped on this path.
  virtual void yield_now(Header* task) { schedule(task); }
//@ end

 protected:
  ~Schedule() = default;
};

// What only the typed task (Cell<T>, rt/task/cell.hpp) knows how to do.
struct TaskVTable {
  void (*store_output)(Header* task);  // the coroutine finished: keep its result
  void (*cancel)(Header* task);        // destroy the coroutine, store "cancelled"
  void (*drop_output)(Header* task);   // nobody will join: destroy the output
  void (*dealloc)(Header* task);       // the last reference is gone: free it all
};

//@ listing header
struct Header {
  Header(const TaskVTable* vtable, std::shared_ptr<Schedule> scheduler, Poller poller)
      : vtable(vtable), scheduler(std::move(scheduler)), poller(poller) {}

  // Hot: read or written on every wake and every poll.
  State state;
  Header* queue_next = nullptr;  // the run queue's link (intrusive)
  const TaskVTable* vtable;

  // Tokio's Core: the scheduler and the future's progress. Tokio keeps
  // the scheduler handle in the typed Core; it is the same for every task
  // here, so it lives in the header.
  std::shared_ptr<Schedule> scheduler;
  Poller poller;

  // Tokio's Trailer (cold): the owned-tasks links and the join waker.
  Header* owned_prev = nullptr;
  Header* owned_next = nullptr;
  // Written by the JoinHandle or read by the runtime, never both at once:
  // the JOIN_WAKER bit of `state` says whose it is (see harness.hpp).
  Waker join_waker;
};
//@ listing-end header

// Gives up one reference to `task`; the last one frees it.
inline void drop_reference(Header* task) {
  if (task->state.ref_dec()) task->vtable->dealloc(task);
}

}  // namespace rt::detail
