// Chapter 04: rt::Handle, spawning from other threads, and blocking on a
// runtime from several threads at once.
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "workers.hpp"

namespace {

rt::Task<int> square(int value) { co_return value * value; }

// (The handle is a parameter, not a lambda capture: g++ 12 destroys a
// capture of a lambda spawned inside a co_await expression twice; see
// book/src/coroutines.md, "Beware: a lambda spawned inside a co_await".)
rt::Task<int> square_through_handles(rt::Handle given) {
  int inner = co_await rt::Handle::current().spawn(square(3));
  auto remote = given.spawn(square(4));
  co_return inner + co_await remote;
}

}  // namespace

TEST_CASE("tasks spawned through a handle from many threads all run" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    constexpr int kThreads = 4;
    constexpr int kPerThread = 500;
    std::vector<std::vector<rt::JoinHandle<int>>> handles(kThreads);
    std::vector<std::thread> spawners;
    rt::Handle handle = runtime.handle();
    for (int t = 0; t < kThreads; ++t) {
      spawners.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) handles[t].push_back(handle.spawn(square(i)));
      });
    }
    for (auto& spawner : spawners) spawner.join();
    long sum = runtime.block_on([&]() -> rt::Task<long> {
      long total = 0;
      for (auto& per_thread : handles) {
        for (auto& joined : per_thread) total += co_await joined;
      }
      co_return total;
    }());
    long expected = 0;
    for (int i = 0; i < kPerThread; ++i) expected += long{i} * i;
    CHECK(sum == kThreads * expected);
  });
}

TEST_CASE("rt::Handle::current() is the runtime the code runs on" * POINTS(1)) {
  CHECK_THROWS_WITH_AS(rt::Handle::current(), doctest::Contains("there is no reactor running"),
                       std::logic_error);
  CHECK_THROWS_AS((void)rt::spawn(square(2)), std::logic_error);
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    int value = runtime.block_on([]() -> rt::Task<int> {
      // From a task, too, and through a handle it was given.
      auto handle = rt::spawn(square_through_handles(rt::Handle::current()));
      co_return co_await handle;
    }());
    CHECK(value == 9 + 16);
    // Blocking on a runtime from inside one would stall it.
    bool refused = runtime.block_on([&]() -> rt::Task<bool> {
      try {
        runtime.block_on(square(1));
      } catch (const std::logic_error& error) {
        co_return std::string(error.what()).find("Cannot start a runtime from within a runtime") !=
            std::string::npos;
      }
      co_return false;
    }());
    CHECK(refused);
  });
}

TEST_CASE("a JoinHandle can be awaited on another runtime" * POINTS(1)) {
  rt_test::on_each_runtime([](rt::Runtime& other) {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
    Gate gate;
    rt::JoinHandle<int> handle = runtime.spawn([&gate]() -> rt::Task<int> {
      co_await gate.wait();
      co_return 42;
    });
    Opener opener(gate);
    CHECK(other.block_on([&]() -> rt::Task<int> { co_return co_await handle; }()) == 42);
  });
}

TEST_CASE("a handle outlives its runtime: spawning cancels at once and block_on throws" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& original) {
    rt::Runtime runtime = std::move(original);
    rt::Handle handle = runtime.handle();
    runtime = rt::Builder::new_current_thread().build();  // the first runtime shuts down
    std::atomic<int> destroyed{0};
    bool ran = false;
    auto joined = handle.spawn([probe = ch04::Probe(destroyed), &ran]() -> rt::Task<int> {
      ran = true;
      co_return 1;
    });
    CHECK(destroyed.load() == 1);  // the task, and what it held, is gone already
    CHECK(joined.is_finished());
    bool cancelled = runtime.block_on([&]() -> rt::Task<bool> {
      try {
        co_await joined;
      } catch (const rt::JoinError& error) {
        co_return error.is_cancelled();
      }
      co_return false;
    }());
    CHECK(cancelled);
    CHECK_FALSE(ran);
    CHECK_THROWS_WITH_AS(handle.block_on(square(2)), doctest::Contains("shut down"),
                         std::runtime_error);
  });
}

TEST_CASE("several threads can block_on one runtime at once" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    constexpr int kThreads = 4;
    for (int round = 0; round < 20; ++round) {
      std::vector<std::unique_ptr<Gate>> gates;
      for (int t = 0; t < kThreads; ++t) gates.push_back(std::make_unique<Gate>());
      std::vector<int> results(kThreads, 0);
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          results[t] = runtime.block_on([](Gate& gate, int t) -> rt::Task<int> {
            co_await gate.wait();
            // A task of the runtime, run by whichever thread runs tasks.
            co_return co_await rt::spawn(square(t));
          }(*gates[t], t));
        });
      }
      for (auto& gate : gates) gate->wait_until_polled();
      for (int t = kThreads - 1; t >= 0; --t) gates[t]->open();  // the last first
      for (auto& thread : threads) thread.join();
      for (int t = 0; t < kThreads; ++t) CHECK(results[t] == t * t);
    }
  });
}
