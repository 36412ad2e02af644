// Chapter 03, under the model checker: rt::Mutex, a semaphore with one
// permit, locked by two tasks on two threads. The guarded value is a
// loom::UnsafeCell, so two holders at once, or a holder that does not see
// what the last one wrote, is a data race the checker reports.
#include "polling.hpp"

namespace {

// A task that locks `mutex`, adds one to the value, unlocks, and counts
// itself in `finished`: once the other task is finished, nobody is left to
// wake this one.
void add_one(rt::Mutex<rt::loom::UnsafeCell<int>>& mutex, model::atomic<int>& holders,
             model::atomic<int>& finished) {
  CountingWaker waker;
  {
    auto lock = mutex.lock();
    sync_model::poll_until_ready(lock, waker, [&] { return finished.load(std::memory_order_acquire) == 1; });
    auto guard = lock.await_resume();
    model::check(holders.fetch_add(1, std::memory_order_relaxed) == 0, "two tasks hold the mutex at once");
    guard->write(guard->read() + 1);
    holders.fetch_sub(1, std::memory_order_relaxed);
  }
  finished.fetch_add(1, std::memory_order_release);
}

}  // namespace

TEST_CASE("model: two tasks locking a mutex on two threads take turns and the permit is neither lost nor copied" *
          POINTS(3)) {
  rt_test::explore([] {
    rt::Mutex<rt::loom::UnsafeCell<int>> mutex;
    model::atomic<int> holders{0};
    model::atomic<int> finished{0};
    model::thread first([&] { add_one(mutex, holders, finished); });
    model::thread second([&] { add_one(mutex, holders, finished); });
    first.join();
    second.join();
    auto guard = mutex.try_lock();
    model::check(guard.has_value(), "both tasks unlocked, and the mutex cannot be locked: its permit was lost");
    model::check((*guard)->read() == 2, "each task added one under the lock: the value must be 2");
    model::check(!mutex.try_lock().has_value(), "the mutex is held, and a second try_lock took it too");
  });
}
