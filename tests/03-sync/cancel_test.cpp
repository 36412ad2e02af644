// Chapter 03: a waiting coroutine can be destroyed before it is woken (here
// by destroying the runtime that polls it; the primitive lives outside it).
// Its leaf must unlink itself, and pass on what it was handed but never
// used, so that the primitive still works for everyone else.
#include <optional>
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "small_tasks.hpp"

TEST_CASE("an mpsc sender destroyed while waiting leaves the channel working" * POINTS(1)) {
  auto channel = rt::mpsc::channel<int>(1);
  auto& tx = channel.first;
  auto& rx = channel.second;
  {
    rt::Runtime doomed;
    doomed.block_on([&tx]() -> rt::Task<> {
      co_await tx.send(1);  // fills the channel
      auto queued = rt::spawn([tx = tx]() mutable -> rt::Task<> { co_await tx.send(2); });
      co_await rt_test::yield_times(3);  // `queued` now waits for a slot
    }());
  }  // destroys `queued` while it waits: it must leave the semaphore's queue
  rt::Runtime runtime;
  runtime.block_on([&tx, &rx]() -> rt::Task<> {
    std::optional<int> first = co_await rx.recv();
    CHECK(first == 1);
    CHECK(tx.try_send(3).ok());  // the freed slot was not handed to the dead sender
    std::optional<int> next = co_await rx.recv();
    CHECK(next == 3);
  }());
}

TEST_CASE("an mpsc sender handed a slot but destroyed before it ran passes the slot on" * POINTS(1)) {
  auto channel = rt::mpsc::channel<int>(1);
  auto& tx = channel.first;
  auto& rx = channel.second;
  {
    rt::Runtime doomed;
    doomed.block_on([&tx, &rx]() -> rt::Task<> {
      co_await tx.send(1);
      auto queued = rt::spawn([tx = tx]() mutable -> rt::Task<> { co_await tx.send(2); });
      co_await rt_test::yield_times(3);
      CHECK(rx.try_recv() == 1);  // frees the slot: it is handed to `queued`, which is woken
      // ... and this block_on returns before `queued` runs again.
    }());
  }
  rt::Runtime runtime;
  runtime.block_on([&tx, &rx]() -> rt::Task<> {
    CHECK(tx.try_send(3).ok());  // the slot came back when `queued` was destroyed
    std::optional<int> next = co_await rx.recv();
    CHECK(next == 3);
  }());
}

TEST_CASE("a Notified destroyed while waiting is unlinked and one that was notified passes it on" * POINTS(1)) {
  rt::Notify notify;
  {
    rt::Runtime doomed;
    doomed.block_on([&notify]() -> rt::Task<> {
      auto waiter = rt::spawn([&notify]() -> rt::Task<> { co_await notify.notified(); });
      co_await rt_test::yield_times(3);
    }());
  }  // the waiter is destroyed while queued
  rt::Runtime runtime;
  runtime.block_on([&notify]() -> rt::Task<> {
    notify.notify_one();  // nobody waits any more: a permit is stored
    co_await notify.notified();
  }());
  {
    rt::Runtime doomed;
    doomed.block_on([&notify]() -> rt::Task<> {
      auto waiter = rt::spawn([&notify]() -> rt::Task<> { co_await notify.notified(); });
      co_await rt_test::yield_times(3);
      notify.notify_one();  // handed to the waiter, which never runs again
    }());
  }
  runtime.block_on([&notify]() -> rt::Task<> {
    co_await notify.notified();  // the notification was passed on as a permit
  }());
}

TEST_CASE("a Mutex waiter destroyed while queued or after it was handed the lock leaves it usable" * POINTS(1)) {
  rt::Mutex<std::string> mutex;
  {
    std::optional<rt::MutexGuard<std::string>> held;
    {
      rt::Runtime doomed;
      doomed.block_on([&mutex, &held]() -> rt::Task<> {
        held.emplace(co_await mutex.lock());
        auto waiter = rt::spawn([&mutex]() -> rt::Task<> { auto guard = co_await mutex.lock(); });
        co_await rt_test::yield_times(3);
      }());
    }  // the waiter is destroyed while queued
  }  // held unlocks: nobody is left waiting
  CHECK(mutex.try_lock().has_value());
  {
    rt::Runtime doomed;
    doomed.block_on([&mutex]() -> rt::Task<> {
      auto guard = co_await mutex.lock();
      auto waiter = rt::spawn([&mutex]() -> rt::Task<> {
        auto inner = co_await mutex.lock();
        *inner += "never";
      });
      co_await rt_test::yield_times(3);
      guard.unlock();  // the lock goes to the waiter, which never runs again
    }());
  }
  auto guard = mutex.try_lock();
  REQUIRE(guard.has_value());  // the waiter gave it back when it was destroyed
  CHECK((*guard)->empty());
}

namespace {

// Awaits an aborted task's handle; true if it reports the cancellation.
rt::Task<bool> was_cancelled(rt::JoinHandle<void>& handle) {
  try {
    co_await handle;
  } catch (const rt::JoinError& error) {
    co_return error.is_cancelled();
  }
  co_return false;
}

}  // namespace

TEST_CASE("waiters aborted with JoinHandle::abort pass on the lock and the notification they were handed" * POINTS(1)) {
  // The waiters must not run between the hand-over and the abort: with one
  // thread running every task, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::Mutex<int> mutex(0);
      auto guard = co_await mutex.lock();
      auto waiter = rt::spawn([&mutex]() -> rt::Task<> {
        auto inner = co_await mutex.lock();
        *inner = 1;
      });
      co_await rt_test::yield_times(3);
      guard.unlock();  // handed to the waiter, which has not run since
      waiter.abort();  // an idle task: cancelled before it runs again
      bool cancelled = co_await was_cancelled(waiter);
      CHECK(cancelled);
      auto again = mutex.try_lock();
      REQUIRE(again.has_value());
      CHECK(**again == 0);

      rt::Notify notify;
      auto first = rt::spawn([&notify]() -> rt::Task<> { co_await notify.notified(); });
      int woke = 0;
      auto second = rt::spawn([&notify, &woke]() -> rt::Task<> {
        co_await notify.notified();
        ++woke;
      });
      co_await rt_test::yield_times(3);
      notify.notify_one();  // handed to `first`
      first.abort();        // ... which passes it on to `second`
      co_await second;
      CHECK(woke == 1);
    }());
  });
}
