// Chapter 05: a task waiting in the global queue runs while the workers
// are busy with tasks of their own rings, every global_queue_interval
// ticks, or, unset, at an interval the runtime tunes itself.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "graded.hpp"
#include "rt/rt.hpp"
#include "wait_for.hpp"

namespace {

// On a one-worker runtime, a task spawns `local` children on the worker,
// then has another thread spawn one task, which goes to the global queue.
// Returns how many of the local children had run when that one started.
std::size_t local_tasks_run_before_the_remote_one(rt::Builder builder, std::size_t local) {
  rt::Runtime runtime = builder.worker_threads(1).build();
  std::atomic<std::size_t> ran{0};
  std::atomic<std::size_t> seen{0};
  rt::Handle handle = runtime.handle();
  runtime.block_on([&]() -> rt::Task<> {
    auto parent = rt::spawn([&]() -> rt::Task<std::vector<rt::JoinHandle<void>>> {
      std::vector<rt::JoinHandle<void>> handles;
      for (std::size_t i = 0; i < local; ++i) {
        handles.push_back(rt::spawn([&ran]() -> rt::Task<> {
          ran.fetch_add(1);
          co_return;
        }));
      }
      // Not a worker: its spawn goes to the global queue. The join keeps
      // this worker here until the task is queued.
      std::thread outside([&] {
        handles.push_back(handle.spawn([&]() -> rt::Task<> {
          seen = ran.load();
          co_return;
        }));
      });
      outside.join();
      co_return handles;
    });
    for (auto& handle : co_await parent) co_await handle;
  }());
  return seen.load();
}

// A poll that takes a millisecond: the work of a slow task, timed by the
// clock so that it is as long under a sanitizer as without.
void spin_for_a_millisecond() {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
  while (std::chrono::steady_clock::now() < until) {
  }
}

}  // namespace

TEST_CASE("a task in the global queue runs within global_queue_interval ticks of a busy worker" * POINTS(2)) {
  std::size_t before = local_tasks_run_before_the_remote_one(
      rt::Builder::new_multi_thread().global_queue_interval(8), 200);
  CHECK(before < 8);
}

TEST_CASE("unless fixed the interval tunes itself and a global task still runs among local ones" * POINTS(1)) {
  // The tuned interval is at most 127 ticks: well before 250 local tasks.
  std::size_t before = local_tasks_run_before_the_remote_one(rt::Builder::new_multi_thread(), 250);
  CHECK(before <= 127);
}

TEST_CASE("a worker whose polls take a millisecond looks at the global queue every second tick" * POINTS(2)) {
  // One worker, kept busy by four tasks that each spin for 1 ms and yield.
  // After a maintenance tick has measured those polls, 200 µs / 1 ms asks
  // for the smallest interval, 2: five tasks queued at once in the global
  // queue then run within a dozen polls of the spinners, where an interval
  // left at 61 would take over 240.
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  std::atomic<int> polls{0};
  std::atomic<bool> stop{false};
  std::atomic<int> remote_ran{0};
  std::array<int, 5> polls_when_run{};
  runtime.block_on([&]() -> rt::Task<> {
    auto spinners = rt::spawn([&]() -> rt::Task<> {
      std::vector<rt::JoinHandle<void>> handles;
      for (int i = 0; i < 4; ++i) {
        handles.push_back(rt::spawn([&]() -> rt::Task<> {  // into the worker's ring
          while (!stop.load()) {
            spin_for_a_millisecond();
            polls.fetch_add(1);
            polls.notify_all();
            co_await rt::yield_now();  // to the back of the ring
          }
        }));
      }
      for (auto& handle : handles) co_await handle;
    });
    rt_test::wait_for(polls, 150);  // two maintenance ticks have passed
    int polls_when_queued = polls.load();
    // This thread is not a worker: these go to the global queue.
    std::vector<rt::JoinHandle<void>> remote;
    for (std::size_t i = 0; i < polls_when_run.size(); ++i) {
      remote.push_back(rt::spawn([&, i]() -> rt::Task<> {
        polls_when_run[i] = polls.load();
        remote_ran.fetch_add(1);
        remote_ran.notify_all();
        co_return;
      }));
    }
    rt_test::wait_for(remote_ran, static_cast<int>(polls_when_run.size()));
    stop = true;
    for (auto& handle : remote) co_await handle;
    co_await spinners;
    int waited = *std::max_element(polls_when_run.begin(), polls_when_run.end()) - polls_when_queued;
    CHECK_MESSAGE(waited < 30, "the five global tasks waited ", waited,
                  " slow polls: the worker did not shorten its interval as its polls grew long "
                  "(is tune_global_queue_interval called at each look at the global queue?)");
  }());
}
