// yield_now(): give the other tasks a turn. Mirrors tokio::task::yield_now.
//
// The first poll asks to be polled again and says "not ready": the task goes
// to the back of the run queue. The second poll, once every task queued
// before it has had its turn, says "ready".
#pragma once

#include "rt/task/poll.hpp"
#include "rt/todo.hpp"

namespace rt {

class YieldNow : public Leaf<YieldNow> {
 public:
  bool poll(Context& cx) override;
  void await_resume() const noexcept {}

 private:
  bool yielded_ = false;
};

inline YieldNow yield_now() { return {}; }

}  // namespace rt
