// yield_now(): give the other tasks a turn. Mirrors tokio::task::yield_now.
//
// The first poll asks to be polled again and says "not ready": the task goes
// to the back of the run queue. The second poll, once every task queued
// before it has had its turn, says "ready".
#pragma once

#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt {

// ANCHOR: yield_now
class YieldNow : public Leaf<YieldNow> {
 public:
  bool poll(Context& cx) override {
    //@ exercise 1 yield_now
    if (yielded_) return true;
    yielded_ = true;
    cx.waker().wake_by_ref();  // queue this task again, behind the others
    return false;
    //@ starter
    // TODO: the first poll must re-queue this task and report "not ready";
    // the next poll reports "ready".
    // Hint: the waker in `cx` re-queues the task that is being polled.
    (void)cx;
    (void)yielded_;
    throw Todo("01 yield_now (rt/task/yield_now.hpp)");
    //@ end
  }
  void await_resume() const noexcept {}

 private:
  bool yielded_ = false;
};
// ANCHOR_END: yield_now

inline YieldNow yield_now() { return {}; }

}  // namespace rt
