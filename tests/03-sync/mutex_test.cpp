// Chapter 03: the async Mutex excludes, may be held across co_await, and
// serves its waiters first come, first served.
#include <string>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<> increment(rt::Mutex<int>& counter, int times) {
  for (int i = 0; i < times; ++i) {
    auto guard = co_await counter.lock();
    int seen = *guard;
    co_await rt::yield_now();  // held across co_await: the others must wait
    *guard = seen + 1;
  }
}

rt::Task<> lock_and_log(rt::Mutex<std::string>& mutex, char name) {
  auto guard = co_await mutex.lock();
  *guard += name;
}

}  // namespace

TEST_CASE("Mutex excludes even when a guard is held across co_await" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    rt::Mutex<int> counter(0);
    runtime.block_on([&]() -> rt::Task<> {
      std::vector<rt::JoinHandle<void>> tasks;
      for (int t = 0; t < 8; ++t) tasks.push_back(rt::spawn(increment(counter, 50)));
      for (auto& task : tasks) co_await task;
    }());
    auto guard = counter.try_lock();
    REQUIRE(guard.has_value());
    CHECK(**guard == 400);
  });
}

TEST_CASE("Mutex hands the lock to its waiters in the order they came" * POINTS(2)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::Mutex<std::string> mutex;
      auto held = co_await mutex.lock();
      std::vector<rt::JoinHandle<void>> tasks;
      for (char name : std::string("abcd")) {
        tasks.push_back(rt::spawn(lock_and_log(mutex, name)));
        co_await rt::yield_now();  // each queues before the next is spawned
      }
      CHECK_FALSE(mutex.try_lock().has_value());
      held.unlock();
      // The lock went straight to 'a': nobody can barge in, not even try_lock.
      CHECK_FALSE(mutex.try_lock().has_value());
      for (auto& task : tasks) co_await task;
      auto guard = mutex.try_lock();
      REQUIRE(guard.has_value());
      CHECK(**guard == "abcd");
    }());
  });
}
