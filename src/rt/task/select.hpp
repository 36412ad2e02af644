//@ file capstone..
// rt::select: waits for the first of two leaves. What tokio::select! does
// for two branches, without the macro.
//
//   auto accept = listener.accept();
//   auto stop = token.cancelled();
//   if (co_await rt::select(accept, stop) == 1) co_return;  // cancelled
//   auto [stream, peer] = accept.await_resume();
//
// Both leaves are polled with the task's waker, so whichever becomes ready
// first wakes the task. The answer says which is ready; its value is taken
// with its own await_resume(), as the leaf protocol says. The other leaf
// was polled but not finished: a readiness leaf (a socket's readable(), a
// cancelled(), a Signal, a Sleep) has consumed nothing, and dropping it
// cancels its wait. Tokio's select! polls the branches in a random order
// for fairness; this one polls `a` first, so put the rarer event second
// (the shutdown signal, say) only if starving it is harmless.
#pragma once

#include <cstddef>

#include "rt/task/poll.hpp"

namespace rt {

//@ listing select
template <class A, class B>
class [[nodiscard]] Select : public Leaf<Select<A, B>> {
 public:
  Select(A& a, B& b) : a_(a), b_(b) {}

  bool poll(Context& cx) override {
    // The leaves' own poll, not through the budget: the select as a whole
    // spends it once.
    if (a_.poll(cx)) {
      ready_ = 0;
      return true;
    }
    if (b_.poll(cx)) {
      ready_ = 1;
      return true;
    }
    return false;
  }
  bool cooperative() const override { return a_.cooperative() || b_.cooperative(); }
  // Which leaf is ready: 0 for the first, 1 for the second.
  std::size_t await_resume() const noexcept { return ready_; }

 private:
  A& a_;
  B& b_;
  std::size_t ready_ = 0;
};

template <class A, class B>
Select<A, B> select(A& a, B& b) {
  return Select<A, B>(a, b);
}
//@ listing-end select

}  // namespace rt
