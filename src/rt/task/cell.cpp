//@ file ..executor
// A task's wake and run, compiled once per runtime; see cell.hpp.
#include "rt/task/cell.hpp"

namespace rt::detail {

//@ listing wake
void TaskBase::wake() {
  //@ exercise executor waker
  // A task that is queued already will be polled; queueing it twice would
  // poll it twice for one wake-up. Exactly one racing waker sees false.
  if (scheduled_.exchange(true, std::memory_order_acq_rel)) return;
  scheduler_->schedule(shared_from_this());
  //@ starter
  // TODO: hand this task to its scheduler, to be polled again, unless it
  // is queued already (then do nothing: it will be polled anyway).
  // Hint: scheduled_.exchange(true) tells you whether it was queued, and
  // shared_from_this() is the reference the run queue keeps.
  throw Todo("@NN@ waker (@FILE@)");
  //@ end
}

//@ listing-end wake

//@ listing run
void TaskBase::run() {
  if (finished_) return;  // woken during its last poll, then it finished
  // Cleared before the poll, so that a wake during the poll queues it again.
  scheduled_.store(false, std::memory_order_release);
  Waker waker(shared_from_this());
  Context cx(waker);
  if (!poller_.poll(cx)) return;
  finished_ = true;
  complete();
  scheduler_->release(*this);
}

//@ listing-end run

}  // namespace rt::detail
