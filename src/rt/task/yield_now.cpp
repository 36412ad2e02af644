// yield_now's leaf, compiled once per runtime; see yield_now.hpp.
#include "rt/task/yield_now.hpp"

namespace rt {

//@ listing yield_now
bool YieldNow::poll(Context& cx) {
  //@ exercise executor yield_now
  //@ mutant executor yield_ready_at_once: re-queues the task but reports ready at once, so the task keeps running
  if (yielded_) return true;
  yielded_ = true;
  cx.waker().wake_by_ref();  // queue this task again, behind the others
  return false;
  //@ instead
  (void)yielded_;
  cx.waker().wake_by_ref();
  return true;
  //@ end
  //@ starter
  // TODO: the first poll must re-queue this task and report "not ready";
  // the next poll reports "ready".
  // Hint: the waker in `cx` re-queues the task that is being polled.
  (void)cx;
  (void)yielded_;
  throw Todo("@NN@ yield_now (@FILE@)");
  //@ end
}

//@ listing-end yield_now

}  // namespace rt
