// Chapter 05: a task waiting in the global queue runs while the workers
// are busy with tasks of their own rings, every global_queue_interval
// ticks, or, unset, at an interval the runtime tunes itself.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "graded.hpp"
#include "rt/rt.hpp"

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
