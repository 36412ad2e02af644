// Chapter 12, under the model checker: CancellationToken's flag and its
// Notify, cancel() against wait_for_cancellation's poll. Every schedule
// (with at most two preemptions) is run; a waiter left asleep after the
// cancel is a deadlock the checker reports.
#include "capstone_model.hpp"
#include "model.hpp"
#include "rt/sync/cancellation_token.hpp"

using ch12_model::WaitableWaker;

namespace {

// `co_await wait` after its first poll said pending: waits for its own
// waker, then polls it again, until it is ready.
void finish_wait(rt::CancellationToken::WaitForCancellation& wait, WaitableWaker& waker, int woken) {
  rt::Context cx(waker.waker());
  for (int rounds = 0;; ++rounds) {
    model::check(rounds < 3, "a wait was woken again and again without finding the token cancelled");
    waker.wait_woken(woken + 1);  // a wait that nobody wakes: a deadlock
    woken = waker.wakes();
    if (wait.poll(cx)) return;
  }
}

}  // namespace

TEST_CASE("model: a cancel racing two waits wakes both or each sees the token cancelled" * POINTS(2)) {
  // Two waits, each with a waker of its own, as two tasks would have.
  // The canceller writes something before it cancels: a waiter that
  // finds the token cancelled must see it (the flag is the hand-over).
  rt_test::explore([] {
    rt::CancellationToken token;
    WaitableWaker first_waker;
    WaitableWaker second_waker;
    rt::loom::UnsafeCell<int> reason;
    model::thread canceller([&] {
      reason.write(15);
      token.cancel();
    });
    auto first = token.cancelled();
    auto second = token.cancelled();
    int first_woken = first_waker.wakes();
    int second_woken = second_waker.wakes();
    rt::Context first_cx(first_waker.waker());
    rt::Context second_cx(second_waker.waker());
    bool first_done = first.poll(first_cx);
    bool second_done = second.poll(second_cx);
    if (!first_done) finish_wait(first, first_waker, first_woken);
    if (!second_done) finish_wait(second, second_waker, second_woken);
    model::check(reason.read() == 15, "a waiter found the token cancelled but not what was written before cancel()");
    canceller.join();
  });
}
