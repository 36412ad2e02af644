// Chapter 03, under the model checker: a bounded mpsc channel, two
// senders on two threads, and the receiver polling as they send.
#include <optional>
#include <utility>

#include "polling.hpp"

namespace {

// A task that sends `value` on `tx` (there is room: the first poll is
// ready), then drops its sender.
void send_one(rt::mpsc::Sender<int> tx, int value) {
  CountingWaker waker;
  auto send = tx.send(value);
  rt::Context cx(waker.waker());
  model::check(send.poll(cx), "the channel has room for both values: a send must not wait");
  send.await_resume();  // throws SendError if the receiver was gone
}

}  // namespace

TEST_CASE("model: values sent on an mpsc channel from two threads are each received once then the channel closes" *
          POINTS(2)) {
  rt_test::explore([] {
    auto [tx, rx] = rt::mpsc::channel<int>(2);
    rt::mpsc::Sender<int> other = tx;
    model::thread first([tx = std::move(tx)]() mutable { send_one(std::move(tx), 1); });
    model::thread second([other = std::move(other)]() mutable { send_one(std::move(other), 2); });
    CountingWaker receiver;
    rt::Context cx(receiver.waker());
    auto recv = rx.recv();
    bool ready = recv.poll(cx);  // before, between or after the sends
    first.join();
    second.join();
    if (!ready) {
      model::check(receiver.wakes() >= 1, "the receiver waits, and neither send woke it: it waits for ever");
      model::check(recv.poll(cx), "woken by a send, the receiver's next poll must be ready");
    }
    int seen[3] = {0, 0, 0};
    std::optional<int> value = recv.await_resume();
    model::check(value == 1 || value == 2, "recv returned no value, or one nobody sent");
    if (value) ++seen[*value];
    auto next = rx.recv();
    model::check(next.poll(cx), "a second value was sent: the second recv must be ready");
    value = next.await_resume();
    model::check(value == 1 || value == 2, "recv returned no value, or one nobody sent");
    if (value) ++seen[*value];
    model::check(seen[1] == 1 && seen[2] == 1, "each value sent must be received exactly once");
    auto end = rx.recv();
    model::check(end.poll(cx) && !end.await_resume().has_value(),
                 "both senders are gone and the channel is drained: recv must end at once");
  });
}
