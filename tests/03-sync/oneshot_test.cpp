// Chapter 03: oneshot delivers one value, and tells the receiver when the
// sender went away without sending.
#include <string>
#include <thread>
#include <utility>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<> send_after_yield(rt::oneshot::Sender<std::string> tx, std::string value) {
  co_await rt::yield_now();
  CHECK_FALSE(tx.send(std::move(value)).has_value());
}

// Awaits the receiver; true if it threw RecvError.
template <class T>
rt::Task<bool> throws_recv_error(rt::oneshot::Receiver<T>& rx) {
  try {
    co_await rx;
  } catch (const rt::oneshot::RecvError&) {
    co_return true;
  }
  co_return false;
}

rt::Task<> drop_after_yield(rt::oneshot::Sender<int> tx) {
  co_await rt::yield_now();
  CHECK_FALSE(tx.is_closed());
  // tx is destroyed here, without sending
}

}  // namespace

TEST_CASE("oneshot delivers the value sent before or after the receiver waits" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::oneshot::channel<std::string>();
      auto sender = rt::spawn(send_after_yield(std::move(tx), "later"));
      std::string first = co_await rx;  // waits: the sender yields first
      CHECK(first == "later");

      auto [tx2, rx2] = rt::oneshot::channel<std::string>();
      CHECK_FALSE(tx2.send("at once").has_value());
      std::string second = co_await rx2;  // ready on the first poll
      CHECK(second == "at once");
      co_await sender;
    }());
  });
}

TEST_CASE("a oneshot sender dropped without sending makes the receiver throw RecvError" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::oneshot::channel<int>();
      auto dropper = rt::spawn(drop_after_yield(std::move(tx)));
      bool threw = co_await throws_recv_error(rx);  // was waiting when it happened
      CHECK(threw);
      co_await dropper;

      auto [tx2, rx2] = rt::oneshot::channel<int>();
      { auto gone = std::move(tx2); }
      bool threw_at_once = co_await throws_recv_error(rx2);  // happened before the wait
      CHECK(threw_at_once);
    }());
  });
}

TEST_CASE("oneshot send gives the value back once the receiver is gone" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::oneshot::channel<int>();
      CHECK_FALSE(tx.is_closed());
      { auto gone = std::move(rx); }
      CHECK(tx.is_closed());
      auto back = tx.send(7);
      REQUIRE(back.has_value());
      CHECK(*back == 7);

      auto [tx2, rx2] = rt::oneshot::channel<int>();
      auto sender = rt::spawn([tx = std::move(tx2)]() mutable -> rt::Task<> {
        (void)tx.send(8);
        co_return;
      });
      int got = co_await rx2;
      CHECK(got == 8);
      co_await sender;
    }());
  });
}

TEST_CASE("a oneshot sent from another thread wakes the receiver" * POINTS(1)) {
  for (int round = 0; round < 100; ++round) {
    auto [tx, rx] = rt::oneshot::channel<int>();
    std::jthread sender([tx = std::move(tx), round]() mutable { (void)tx.send(round); });
    rt::Runtime runtime;
    int got = runtime.block_on([](rt::oneshot::Receiver<int>& rx) -> rt::Task<int> {
      co_return co_await rx;
    }(rx));
    sender.join();
    CHECK(got == round);
  }
}
