// Chapter 03: the bounded mpsc channel: order, back-pressure, try_send and
// try_recv, and both ways of closing.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

using rt::mpsc::Receiver;
using rt::mpsc::Sender;

rt::Task<> send_all(Sender<int> tx, int from, int to, int& sent) {
  for (int i = from; i < to; ++i) {
    co_await tx.send(i);
    ++sent;
  }
}

rt::Task<std::vector<int>> receive_all(Receiver<int>& rx) {
  std::vector<int> got;
  while (std::optional<int> value = co_await rx.recv()) got.push_back(*value);
  co_return got;
}

// Awaits a send; the value back if it threw SendError, else nothing.
rt::Task<std::optional<std::string>> send_or_value_back(Sender<std::string>& tx, std::string value) {
  try {
    co_await tx.send(std::move(value));
  } catch (rt::mpsc::SendError<std::string>& error) {
    co_return std::move(error.value);
  }
  co_return std::nullopt;
}

}  // namespace

TEST_CASE("mpsc delivers in order then std::nullopt once every sender is gone and it is drained" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::mpsc::channel<int>(4);
      Sender<int> tx2 = tx;  // a second producer: the channel stays open until both are gone
      co_await tx.send(1);
      co_await tx.send(2);
      co_await tx2.send(3);
      { auto gone = std::move(tx); }
      std::optional<int> first = co_await rx.recv();
      CHECK(first == 1);
      CHECK_FALSE(rx.is_closed());  // tx2 is still there
      { auto gone = std::move(tx2); }
      CHECK_FALSE(rx.is_closed());  // closed, but 2 and 3 are still queued
      std::vector<int> rest = co_await receive_all(rx);
      CHECK(rest == std::vector<int>{2, 3});
      std::optional<int> after = co_await rx.recv();
      CHECK_FALSE(after.has_value());
      CHECK(rx.is_closed());
    }());
  });
}

TEST_CASE("mpsc send waits while the channel is full and is woken as space frees" * POINTS(2)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::mpsc::channel<int>(2);
      int sent = 0;
      auto producer = rt::spawn(send_all(std::move(tx), 0, 5, sent));
      for (int i = 0; i < 5; ++i) co_await rt::yield_now();
      CHECK(sent == 2);  // capacity 2: the third send waits
      std::optional<int> value = co_await rx.recv();
      CHECK(value == 0);
      for (int i = 0; i < 5; ++i) co_await rt::yield_now();
      CHECK(sent == 3);  // one slot freed, one more value in
      std::vector<int> rest = co_await receive_all(rx);
      CHECK(rest == std::vector<int>{1, 2, 3, 4});
      CHECK(sent == 5);
      co_await producer;
    }());
  });
}

TEST_CASE("mpsc recv waits while the channel is empty and is woken by a send" * POINTS(1)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::mpsc::channel<int>(8);
      int sent = 0;
      auto producer = rt::spawn([tx = std::move(tx), &sent]() mutable -> rt::Task<> {
        for (int i = 0; i < 3; ++i) co_await rt::yield_now();
        co_await send_all(std::move(tx), 10, 12, sent);
      });
      std::optional<int> value = co_await rx.recv();  // nothing there yet
      CHECK(value == 10);
      co_await producer;
      std::vector<int> rest = co_await receive_all(rx);
      CHECK(rest == std::vector<int>{11});
    }());
  });
}

TEST_CASE("mpsc try_send and try_recv never wait" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::mpsc::channel<std::string>(2);
      CHECK_FALSE(rx.try_recv().has_value());  // empty
      CHECK(tx.try_send("a").ok());
      CHECK(tx.try_send("b").ok());
      auto full = tx.try_send("c");
      CHECK(full.status == rt::mpsc::TrySend::full);
      CHECK(full.value == "c");  // the value comes back
      std::optional<std::string> a = co_await rx.recv();  // ready at once
      CHECK(a == "a");
      CHECK(tx.try_send("c").ok());  // the recv freed a slot
      CHECK(rx.try_recv() == "b");
      CHECK(rx.try_recv() == "c");
      CHECK_FALSE(rx.try_recv().has_value());
      CHECK(tx.try_send("d").ok());  // try_recv freed slots too
      CHECK(rx.try_recv() == "d");
      { auto gone = std::move(rx); }
      auto closed = tx.try_send("e");
      CHECK(closed.status == rt::mpsc::TrySend::closed);
      CHECK(closed.value == "e");
      CHECK(tx.is_closed());
      co_return;
    }());
  });
}

TEST_CASE("dropping the mpsc receiver wakes waiting senders with SendError and their value" * POINTS(2)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [tx, rx] = rt::mpsc::channel<std::string>(1);
      co_await tx.send("fills the channel");
      std::vector<std::string> back;
      std::vector<rt::JoinHandle<void>> senders;
      for (std::string name : {"x", "y", "z"}) {
        senders.push_back(rt::spawn([tx = tx, name, &back]() mutable -> rt::Task<> {
          std::optional<std::string> value = co_await send_or_value_back(tx, name);
          back.push_back(value.value_or("sent?"));
        }));
      }
      for (int i = 0; i < 3; ++i) co_await rt::yield_now();  // all three wait for a slot
      CHECK(back.empty());
      { auto gone = std::move(rx); }
      for (auto& sender : senders) co_await sender;
      CHECK(back == std::vector<std::string>{"x", "y", "z"});
      std::optional<std::string> later = co_await send_or_value_back(tx, "later");
      CHECK(later == "later");
    }());
  });
}
