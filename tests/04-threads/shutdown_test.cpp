// Chapter 04: a runtime that goes away cancels every task, waiting or
// running, joins its workers, and leaks nothing.
#include <atomic>
#include <thread>
#include <vector>

#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "workers.hpp"

namespace {

// True when awaiting `handle` (on another runtime) says "cancelled".
template <class T>
bool joins_as_cancelled(rt::JoinHandle<T>& handle) {
  rt::Runtime other = rt::Builder::new_current_thread().build();
  return other.block_on([&]() -> rt::Task<bool> {
    try {
      co_await handle;
    } catch (const rt::JoinError& error) {
      co_return error.is_cancelled();
    }
    co_return false;
  }());
}

}  // namespace

TEST_CASE("shutdown cancels the tasks blocked on channels and frees what they hold" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& original) {
    constexpr int kTasks = 50;
    std::atomic<int> destroyed{0};
    std::vector<rt::JoinHandle<int>> handles;
    auto [sender, rx] = rt::mpsc::channel<int>(1);
    rt::mpsc::Sender<int> tx = sender;  // (a structured binding cannot be captured in C++20)
    {
      rt::Runtime runtime = std::move(original);
      runtime.block_on([&]() -> rt::Task<> {
        for (int i = 0; i < kTasks; ++i) {
          handles.push_back(rt::spawn([probe = ch04::Probe(destroyed), tx]() mutable -> rt::Task<int> {
            co_await tx.send(1);  // the first fills the channel: the others wait
            co_await tx.send(2);  // and so does this one: nobody receives
            co_return 0;
          }));
        }
        for (int i = 0; i < 3; ++i) co_await rt::yield_now();
      }());
      CHECK(destroyed.load() == 0);
    }  // the runtime goes: every task is cancelled, its frame destroyed
    CHECK(destroyed.load() == kTasks);
    for (auto& handle : handles) {
      CHECK(handle.is_finished());
      CHECK(joins_as_cancelled(handle));
    }
  });
}

TEST_CASE("shutdown stops running tasks and joins idle and busy workers" * POINTS(2)) {
  std::atomic<int> destroyed{0};
  std::atomic<int> started{0};
  std::vector<rt::JoinHandle<void>> handles;
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
    for (int i = 0; i < 2; ++i) {  // two busy workers, two idle ones
      handles.push_back(runtime.spawn([probe = ch04::Probe(destroyed), &started]() -> rt::Task<> {
        started.fetch_add(1);
        for (;;) co_await rt::yield_now();
      }));
    }
    while (started.load() < 2) std::this_thread::yield();
  }  // would hang if a worker were never woken, or never left its loop
  CHECK(destroyed.load() == 2);
  for (auto& handle : handles) CHECK(joins_as_cancelled(handle));
}

TEST_CASE("abort hands a waiting task to its scheduler which cancels it on a worker" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
  std::atomic<int> destroyed{0};
  std::thread::id destroyed_on;
  Gate gate;
  auto handle = runtime.spawn([probe = ch04::Probe(destroyed, &destroyed_on), &gate]() -> rt::Task<int> {
    co_await gate.wait();
    co_return 1;
  });
  gate.wait_until_polled();
  handle.abort();  // from this thread, outside the runtime
  CHECK(joins_as_cancelled(handle));
  REQUIRE(destroyed.load() == 1);
  // The coroutine was destroyed where the runtime runs its tasks, not here.
  CHECK(destroyed_on != std::this_thread::get_id());
}
