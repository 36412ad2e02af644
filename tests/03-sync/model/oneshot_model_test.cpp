// Chapter 03, under the model checker: a oneshot receiver's poll against
// the sender, sending or dropped, on another thread.
#include <utility>

#include "polling.hpp"

TEST_CASE("model: a oneshot send racing the receiver's poll wakes it or hands it the value" * POINTS(2)) {
  rt_test::explore([] {
    auto channel = rt::oneshot::channel<int>();
    auto& tx = channel.first;
    auto& rx = channel.second;
    CountingWaker receiver;
    model::thread sender([&] { model::check(!tx.send(42).has_value(), "send failed with the receiver alive"); });
    rt::Context cx(receiver.waker());
    bool ready = rx.poll(cx);  // before, during or after the send
    sender.join();
    if (!ready) {
      model::check(receiver.wakes() == 1, "the receiver waits, and the send did not wake it: it waits for ever");
      model::check(rx.poll(cx), "woken by the send, the receiver's next poll must be ready");
    }
    model::check(rx.await_resume() == 42, "the receiver did not get the value sent");
  });
}

TEST_CASE("model: a oneshot sender dropped without sending wakes the receiver with an error" * POINTS(1)) {
  rt_test::explore([] {
    auto channel = rt::oneshot::channel<int>();
    auto& tx = channel.first;
    auto& rx = channel.second;
    CountingWaker receiver;
    model::thread sender([&] { auto gone = std::move(tx); });
    rt::Context cx(receiver.waker());
    bool ready = rx.poll(cx);
    sender.join();
    if (!ready) {
      model::check(receiver.wakes() == 1, "the receiver waits, and the sender's drop did not wake it");
      model::check(rx.poll(cx), "woken by the sender's drop, the receiver's next poll must be ready");
    }
    bool failed = false;
    try {
      (void)rx.await_resume();
    } catch (const rt::oneshot::RecvError&) {
      failed = true;
    }
    model::check(failed, "with the sender gone and nothing sent, the receiver must get a RecvError");
  });
}
