// Chapter 03: more waiters than a WakeList holds (32) are all woken, in
// batches, and a waiter that comes during a batch is not woken by it.
#include <atomic>
#include <optional>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

constexpr int kWaiters = 100;

rt::Task<bool> send_fails(rt::mpsc::Sender<int> tx, std::atomic<int>& waiting) {
  ++waiting;
  try {
    co_await tx.send(1);
  } catch (const rt::mpsc::SendError<int>&) {
    co_return true;
  }
  co_return false;
}

// Waits for a notification, then reports it through `woken`.
rt::Task<> wait_notified(rt::Notify& notify, std::atomic<int>& queued, rt::mpsc::Sender<int> woken) {
  ++queued;  // and queued it is, in this same poll
  co_await notify.notified();
  co_await woken.send(1);
}

}  // namespace

TEST_CASE("closing a channel wakes every one of a hundred waiting senders" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    int failed = runtime.block_on([]() -> rt::Task<int> {
      auto [tx, rx] = rt::mpsc::channel<int>(1);
      co_await tx.send(0);  // full from now on
      std::atomic<int> waiting{0};
      std::vector<rt::JoinHandle<bool>> senders;
      for (int i = 0; i < kWaiters; ++i) senders.push_back(rt::spawn(send_fails(tx, waiting)));
      while (waiting < kWaiters) co_await rt::yield_now();
      for (int i = 0; i < 10; ++i) co_await rt::yield_now();
      { auto gone = std::move(rx); }  // closes: every sender gets its value back
      int count = 0;
      for (auto& sender : senders) count += (co_await sender) ? 1 : 0;
      co_return count;
    }());
    CHECK(failed == kWaiters);
  });
}

TEST_CASE("notify_waiters wakes every one of a hundred waiters" * POINTS(1)) {
  // Every waiter must be queued before the call: with one thread running
  // the tasks in order, as a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    int woken = runtime.block_on([]() -> rt::Task<int> {
      rt::Notify notify;
      std::atomic<int> queued{0};
      auto [tx, rx] = rt::mpsc::channel<int>(kWaiters);
      std::vector<rt::JoinHandle<void>> waiters;
      for (int i = 0; i < kWaiters; ++i) waiters.push_back(rt::spawn(wait_notified(notify, queued, tx)));
      while (queued < kWaiters) co_await rt::yield_now();
      notify.notify_waiters();
      int woken = 0;
      for (int i = 0; i < kWaiters; ++i) woken += (co_await rx.recv()).value_or(0);
      for (auto& waiter : waiters) co_await waiter;
      co_return woken;
    }());
    CHECK(woken == kWaiters);
  });
}
