// KeepWaker: a leaf future that is ready at once and leaves a clone of its
// waker in a slot the test owns, so that the test can wake the task later,
// from wherever it likes (after it finished, from another thread...).
#pragma once

#include "rt/rt.hpp"

class KeepWaker : public rt::Leaf<KeepWaker> {
 public:
  explicit KeepWaker(rt::Waker& slot) : slot_(slot) {}
  bool poll(rt::Context& cx) override {
    slot_ = cx.waker();
    return true;
  }
  void await_resume() const noexcept {}

 private:
  rt::Waker& slot_;
};
