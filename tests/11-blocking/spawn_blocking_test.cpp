// Chapter 11: spawn_blocking. A function handed to the blocking pool runs
// on a thread of the pool, never on the thread that spawned it, and its
// JoinHandle is a task's: the value, the exception as a JoinError, abort
// before it starts. The runtime stays current inside it.
#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "answer.hpp"
#include "blocking.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

TEST_CASE("spawn_blocking returns the function's value computed on a thread of the pool" * POINTS(2)) {
  ch11::on_each_flavour([](rt::Runtime& runtime) {
    std::thread::id task_thread;
    auto [value, job_thread] = runtime.block_on([&]() -> rt::Task<std::pair<int, std::thread::id>> {
      task_thread = std::this_thread::get_id();
      co_return co_await rt::spawn_blocking([] { return std::pair{7, std::this_thread::get_id()}; });
    }());
    CHECK(value == 7);
    CHECK(job_thread != task_thread);
    CHECK(job_thread != std::this_thread::get_id());
    CHECK(runtime.metrics().num_blocking_threads() == 1);
  });
}

TEST_CASE("an exception thrown by a blocking job reaches its JoinHandle as a JoinError" * POINTS(1)) {
  ch11::on_each_flavour([](rt::Runtime& runtime) {
    std::string what = runtime.block_on([]() -> rt::Task<std::string> {
      try {
        co_await rt::spawn_blocking([]() -> int { throw std::runtime_error("the disk is gone"); });
      } catch (const rt::JoinError& error) {
        if (!error.is_panic()) co_return "a JoinError that is not a panic";
        try {
          std::rethrow_exception(error.original());
        } catch (const std::runtime_error& original) {
          co_return original.what();
        }
      }
      co_return "no exception";
    }());
    CHECK(what == "the disk is gone");
  });
}

TEST_CASE("a blocking job that waits for a task completes: the task runs while the job blocks" * POINTS(2)) {
  ch11::on_each_flavour([](rt::Runtime& runtime) {
    ch11::Flag released;
    int value = runtime.block_on([&]() -> rt::Task<int> {
      rt::JoinHandle<int> job = rt::spawn_blocking([&] {
        released.wait();  // only the task below can set it
        return 5;
      });
      rt::JoinHandle<void> task = rt::spawn([&]() -> rt::Task<> {
        released.set();
        co_return;
      });
      co_await task;
      co_return co_await job;
    }());
    CHECK(value == 5);
  });
}

TEST_CASE("inside a blocking job the runtime is current: rt::spawn reaches it" * POINTS(1)) {
  ch11::on_each_flavour([](rt::Runtime& runtime) {
    int value = runtime.block_on([]() -> rt::Task<int> {
      rt::JoinHandle<int> spawned = co_await rt::spawn_blocking([] { return rt::spawn(rt_test::answer()); });
      co_return co_await spawned;
    }());
    CHECK(value == 42);
  });
}

TEST_CASE("a blocking job aborted before it starts never runs and its JoinHandle says cancelled" * POINTS(2)) {
  ch11::on_each_flavour(
      [](rt::Runtime& runtime) {
        ch11::Flag started;
        ch11::Flag release;
        std::atomic<bool> ran{false};
        // The pool's one thread is busy: the second job waits in the queue.
        rt::JoinHandle<void> first = runtime.spawn_blocking([&] {
          started.set();
          release.wait();
        });
        started.wait();
        rt::JoinHandle<void> second = runtime.spawn_blocking([&] { ran = true; });
        CHECK(runtime.metrics().blocking_queue_depth() == 1);
        second.abort();
        release.set();
        bool cancelled = runtime.block_on([&]() -> rt::Task<bool> {
          co_await first;
          try {
            co_await second;
          } catch (const rt::JoinError& error) {
            co_return error.is_cancelled();
          }
          co_return false;
        }());
        CHECK(cancelled);
        CHECK_FALSE(ran.load());
      },
      {.max_blocking = 1});
}

TEST_CASE("a blocking job spawned after the runtime shut down is cancelled and never runs" * POINTS(1)) {
  for (bool multi_thread : {false, true}) {
    INFO((multi_thread ? "on a multi-thread runtime" : "on the current-thread runtime"));
    std::optional<rt::Handle> handle;
    {
      rt::Runtime runtime = multi_thread ? ch11::multi_thread(1) : ch11::current_thread();
      handle.emplace(runtime.handle());
    }
    std::atomic<bool> ran{false};
    rt::JoinHandle<void> job = handle->spawn_blocking([&] { ran = true; });
    CHECK(job.is_finished());
    CHECK_FALSE(ran.load());
  }
}
