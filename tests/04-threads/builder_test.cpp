// Chapter 04: the Builder, and how many workers a runtime gets (E1).
#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Completes only once `count` tasks are running at the same time, each
// blocking its worker thread: proof of `count` worker threads. Each task is
// spawned once the one before runs, so that an idle worker takes it (a
// worker that took two at once, with no stealing yet, would hold both).
void require_parallel_workers(rt::Runtime& runtime, std::ptrdiff_t count) {
  std::latch all_running(count);
  std::atomic<std::ptrdiff_t> started{0};
  runtime.block_on([&]() -> rt::Task<> {
    std::vector<rt::JoinHandle<void>> handles;
    for (std::ptrdiff_t i = 0; i < count; ++i) {
      handles.push_back(rt::spawn([&all_running, &started]() -> rt::Task<> {
        started.fetch_add(1);
        started.notify_all();
        all_running.arrive_and_wait();
        co_return;
      }));
      // This thread is not a worker: waiting here holds no task up.
      for (std::ptrdiff_t now = started.load(); now <= i; now = started.load()) started.wait(now);
    }
    for (auto& handle : handles) co_await handle;
  }());
}

}  // namespace

TEST_CASE("a multi-thread runtime has a worker per hardware thread or RT_WORKER_THREADS" * POINTS(2)) {
  unsetenv("RT_WORKER_THREADS");
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().build();
    CHECK(runtime.metrics().num_workers() == cores);
  }
  setenv("RT_WORKER_THREADS", "3", 1);
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().build();
    CHECK(runtime.metrics().num_workers() == 3);
    require_parallel_workers(runtime, 3);  // and there really are three
  }
  {
    // An explicit count wins over the environment.
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
    CHECK(runtime.metrics().num_workers() == 2);
  }
  CHECK(rt::Builder::new_current_thread().build().metrics().num_workers() == 1);
  setenv("RT_WORKER_THREADS", "zero", 1);
  CHECK_THROWS_AS(rt::Builder::new_multi_thread().build(), std::invalid_argument);
  setenv("RT_WORKER_THREADS", "0", 1);
  CHECK_THROWS_AS(rt::Builder::new_multi_thread().build(), std::invalid_argument);
  unsetenv("RT_WORKER_THREADS");
  CHECK_THROWS_AS(rt::Builder::new_multi_thread().worker_threads(0), std::invalid_argument);
}

TEST_CASE("the workers run tasks in parallel on threads named by the builder" * POINTS(1)) {
  rt::Runtime runtime =
      rt::Builder::new_multi_thread().worker_threads(2).thread_name("ch04-worker").build();
  require_parallel_workers(runtime, 2);
  std::string name = runtime.block_on([]() -> rt::Task<std::string> {
    co_return co_await rt::spawn([]() -> rt::Task<std::string> {
      char buffer[16] = {};
      pthread_getname_np(pthread_self(), buffer, sizeof buffer);
      co_return std::string(buffer);
    });
  }());
  CHECK(name == "ch04-worker");
}

TEST_CASE("a runtime can be moved and the move keeps its tasks" * POINTS(1)) {
  rt_test::on_each_runtime([](rt::Runtime& original) {
    rt::Runtime runtime = std::move(original);
    CHECK(runtime.block_on([]() -> rt::Task<int> {
      co_return co_await rt::spawn([]() -> rt::Task<int> { co_return 7; });
    }()) == 7);
    rt::Runtime other = rt::Builder::new_current_thread().build();
    other = std::move(runtime);  // shuts the current-thread one down, takes this one
    CHECK(other.block_on([]() -> rt::Task<int> {
      co_return co_await rt::spawn([]() -> rt::Task<int> { co_return 8; });
    }()) == 8);
  });
}
