//@ file ..executor
// A task's wake and run, compiled once per runtime; see cell.hpp.
#include "rt/task/cell.hpp"

namespace rt::detail {

//@ listing wake
void TaskBase::wake() {
  //@ exercise executor waker
  // A task that is queued already will be polled; queueing it twice would
  // poll it twice for one wake-up. Exactly one racing waker sees false.
  //@ mutant executor wake_twice: never asks whether the task is queued already, so each wake queues it once more
  //@ mutant executor wake_load_then_store: reads the flag, then sets it: two racing wakers both see false and both queue the task
  if (scheduled_.exchange(true, std::memory_order_acq_rel)) return;
  //@ instead
  if (scheduled_.load(std::memory_order_acquire)) return;
  scheduled_.store(true, std::memory_order_release);
  //@ end
  //@ instead
  scheduled_.store(true, std::memory_order_release);
  //@ end
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
  //@ mutant executor run_after_finish: polls a task again after it finished, when it was woken during its last poll
  if (finished_) return;  // woken during its last poll, then it finished
  //@ instead
  //@ end
  //@ mutant executor flag_cleared_after_poll: clears the queued flag after the poll, so a wake during the poll is lost
  // Cleared before the poll, so that a wake during the poll queues it again.
  scheduled_.store(false, std::memory_order_release);
  //@ instead
  //@ end
  Waker waker(shared_from_this());
  Context cx(waker);
  //@ mutant executor flag_cleared_after_poll: clears the queued flag after the poll, so a wake during the poll is lost
  if (!poller_.poll(cx)) return;
  //@ instead
  bool finished = poller_.poll(cx);
  scheduled_.store(false, std::memory_order_release);
  if (!finished) return;
  //@ end
  finished_ = true;
  complete();
  scheduler_->release(*this);
}

//@ listing-end run

}  // namespace rt::detail
