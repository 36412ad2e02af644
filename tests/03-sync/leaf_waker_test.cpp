// Chapter 03: each primitive's leaf future, polled by hand with wakers that
// count (tests/support/counting_waker.hpp), outside any task: whom a leaf
// wakes, and what its next poll says, checked exactly, one step at a time.
#include <optional>
#include <utility>

#include "counting_waker.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "scoped_hook.hpp"

TEST_CASE("a oneshot receiver polled by a second task wakes the second one" * POINTS(1)) {
  auto [tx, rx] = rt::oneshot::channel<int>();
  CountingWaker first, second;
  rt::Context first_cx(first.waker()), second_cx(second.waker());
  CHECK_FALSE(rx.poll(first_cx));
  CHECK_FALSE(rx.poll(second_cx));  // the receiver moved to another task
  CHECK_FALSE(tx.send(7));
  CHECK(second.wakes() == 1);
  CHECK(first.wakes() == 0);
  CHECK(first.held() == 0);  // the replaced waker was dropped
  CHECK(rx.poll(second_cx));
  CHECK(rx.await_resume() == 7);
}

TEST_CASE("notify_one marks the waiter it wakes so that its next poll is ready" * POINTS(1)) {
  rt::Notify notify;
  auto notified = notify.notified();
  CountingWaker waiter;
  rt::Context cx(waiter.waker());
  CHECK_FALSE(notified.poll(cx));
  CHECK_FALSE(notified.poll(cx));  // a spurious poll changes nothing
  notify.notify_one();
  CHECK(waiter.wakes() == 1);
  CHECK(notified.poll(cx));
}

TEST_CASE("a spurious poll of a waiting Mutex lock does not queue it twice" * POINTS(2)) {
  rt::Mutex<int> mutex(0);
  auto held = mutex.try_lock();
  REQUIRE(held);
  auto first = mutex.lock();
  auto second = mutex.lock();
  CountingWaker first_waker, second_waker;
  rt::Context first_cx(first_waker.waker()), second_cx(second_waker.waker());
  CHECK_FALSE(first.poll(first_cx));
  CHECK_FALSE(second.poll(second_cx));
  CHECK_FALSE(first.poll(first_cx));  // spurious: it must keep its place, once
  held.reset();                       // unlocks: the lock goes to `first`
  CHECK(first_waker.wakes() == 1);
  CHECK(second_waker.wakes() == 0);
  REQUIRE(first.poll(first_cx));
  {
    auto guard = first.await_resume();
    *guard = 1;
  }  // unlocks: the lock goes to `second`
  CHECK(second_waker.wakes() == 1);
  REQUIRE(second.poll(second_cx));
  CHECK(*second.await_resume() == 1);
}

TEST_CASE("an mpsc recv gives the slot of the value it takes back to the senders" * POINTS(1)) {
  auto [tx, rx] = rt::mpsc::channel<int>(1);
  REQUIRE(tx.try_send(1).ok());
  CHECK(tx.capacity() == 0);
  auto recv = rx.recv();
  CountingWaker receiver;
  rt::Context cx(receiver.waker());
  REQUIRE(recv.poll(cx));
  CHECK(recv.await_resume() == std::optional<int>(1));
  CHECK(tx.capacity() == 1);
  CHECK(tx.try_send(2).ok());
}

TEST_CASE("a Notified destroyed after notify_one chose it passes the notification on" * POINTS(1)) {
  rt::Notify notify;
  std::optional<rt::Notify::Notified> first;
  first.emplace(notify);
  auto second = notify.notified();
  CountingWaker first_waker, second_waker;
  rt::Context first_cx(first_waker.waker()), second_cx(second_waker.waker());
  CHECK_FALSE(first->poll(first_cx));
  CHECK_FALSE(second.poll(second_cx));
  notify.notify_one();  // chooses the oldest waiter...
  CHECK(first_waker.wakes() == 1);
  first.reset();  // ...which goes away before it is polled again
  CHECK(second_waker.wakes() == 1);
  CHECK(second.poll(second_cx));
}

TEST_CASE("a Mutex lock destroyed after it was handed the lock passes it on" * POINTS(1)) {
  rt::Mutex<int> mutex(0);
  auto held = mutex.try_lock();
  REQUIRE(held);
  std::optional<rt::Mutex<int>::Lock> first;
  first.emplace(mutex);
  auto second = mutex.lock();
  CountingWaker first_waker, second_waker;
  rt::Context first_cx(first_waker.waker()), second_cx(second_waker.waker());
  CHECK_FALSE(first->poll(first_cx));
  CHECK_FALSE(second.poll(second_cx));
  held.reset();  // the lock goes to `first`...
  CHECK(first_waker.wakes() == 1);
  first.reset();  // ...which goes away without ever taking it
  CHECK(second_waker.wakes() == 1);
  CHECK(second.poll(second_cx));
}

// The lock the hook frees: the hook is a plain function pointer.
static std::optional<rt::MutexGuard<int>>* freed_by_hook = nullptr;

TEST_CASE("a lock freed between a Mutex lock's look at the pool and its queueing is taken and not lost" *
          POINTS(2)) {
  rt::Mutex<int> mutex(0);
  auto held = mutex.try_lock();
  REQUIRE(held);
  auto lock = mutex.lock();
  CountingWaker waker;
  rt::Context cx(waker.waker());
  // The first poll finds no permit, and the hook then unlocks: the permit
  // goes to the pool, for nobody waits yet. The poll must still take it.
  freed_by_hook = &held;
  rt_test::ScopedHook<void (*)()> hook(rt::detail::semaphore_after_fast_path, +[] {
    if (auto* guard = std::exchange(freed_by_hook, nullptr)) guard->reset();  // once
  });
  bool ready = lock.poll(cx);
  CHECK_FALSE(held.has_value());  // the hook ran: the student's poll calls it
  CHECK(ready);
  CHECK_FALSE(mutex.try_lock().has_value());  // it holds the lock, and none is left in the pool
}

TEST_CASE("an mpsc send handed a slot while it waited takes no second one when polled" * POINTS(1)) {
  auto [tx, rx] = rt::mpsc::channel<int>(2);
  REQUIRE(tx.try_send(1).ok());
  REQUIRE(tx.try_send(2).ok());
  auto send = tx.send(3);
  CountingWaker sender;
  rt::Context cx(sender.waker());
  CHECK_FALSE(send.poll(cx));
  CHECK(rx.try_recv() == std::optional<int>(1));  // its slot goes to the waiting send...
  CHECK(sender.wakes() == 1);
  CHECK(tx.capacity() == 0);
  CHECK(rx.try_recv() == std::optional<int>(2));  // ...and this one to the pool: nobody waits
  CHECK(tx.capacity() == 1);
  REQUIRE(send.poll(cx));  // queues 3 with the slot it was handed
  send.await_resume();
  CHECK(tx.capacity() == 1);
  CHECK(tx.try_send(4).ok());
  CHECK(rx.try_recv() == std::optional<int>(3));
  CHECK(rx.try_recv() == std::optional<int>(4));
}

TEST_CASE("notify_one that wakes a waiter stores no permit for the next one" * POINTS(1)) {
  rt::Notify notify;
  auto first = notify.notified();
  CountingWaker waiter;
  rt::Context cx(waiter.waker());
  CHECK_FALSE(first.poll(cx));
  notify.notify_one();  // taken by the waiter
  CHECK(waiter.wakes() == 1);
  CHECK(first.poll(cx));
  auto next = notify.notified();
  CountingWaker later;
  rt::Context later_cx(later.waker());
  CHECK_MESSAGE(!next.poll(later_cx), "notify_one woke a waiter and stored a permit too: one call let two waiters through");
}

TEST_CASE("notify_waiters with nobody waiting stores no permit" * POINTS(1)) {
  rt::Notify notify;
  notify.notify_waiters();  // nobody waits: nothing to do
  auto next = notify.notified();
  CountingWaker waiter;
  rt::Context cx(waiter.waker());
  CHECK_MESSAGE(!next.poll(cx), "notify_waiters with nobody waiting stored a permit, which only notify_one does");
  notify.notify_one();
  CHECK(waiter.wakes() == 1);
  CHECK(next.poll(cx));
}
