// Chapter 05: a task spawned or woken on a worker goes to that worker's
// own ring; a full ring overflows to the global queue, and what it moved
// there wakes a sleeping worker; across a million spawns on four workers no
// task is lost or run twice.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"

namespace {

// What a parent task sees of the runtime right after spawning its children.
struct Seen {
  std::size_t local_depth = 0;
  std::size_t global_depth = 0;
  std::uint64_t local_schedules = 0;
  std::uint64_t overflows = 0;
};

// On a one-worker runtime (nobody can take the children while the parent
// runs), spawns `children` tasks from a task, records what the metrics say
// right after, then lets every child run; `order` gets the children's
// numbers in the order they ran.
Seen spawn_from_a_task(std::size_t children, std::vector<std::size_t>& order) {
  rt::Builder builder = rt::Builder::new_multi_thread();
  builder.worker_threads(1).global_queue_interval(100000);
#ifdef RT_HAS_LIFO_SLOT
  builder.disable_lifo_slot();  // chapter 07's slot would hold the last one spawned
#endif
  rt::Runtime runtime = builder.build();
  auto mutex = std::make_shared<std::mutex>();
  Seen seen;
  runtime.block_on([&]() -> rt::Task<> {
    auto parent = rt::spawn([&, mutex]() -> rt::Task<std::vector<rt::JoinHandle<void>>> {
      std::vector<rt::JoinHandle<void>> handles;
      for (std::size_t i = 0; i < children; ++i) {
        handles.push_back(rt::spawn([&order, mutex, i]() -> rt::Task<> {
          std::lock_guard lock(*mutex);
          order.push_back(i);
          co_return;
        }));
      }
      rt::RuntimeMetrics metrics = rt::Handle::current().metrics();
      seen = {metrics.worker_local_queue_depth(0), metrics.global_queue_depth(),
              metrics.worker_local_schedule_count(0), metrics.worker_overflow_count(0)};
      co_return handles;
    });
    for (auto& child : co_await parent) co_await child;
  }());
  return seen;
}

}  // namespace

TEST_CASE("a task spawned on a worker goes to that worker's own ring" * POINTS(2)) {
  std::vector<std::size_t> order;
  Seen seen = spawn_from_a_task(10, order);
  CHECK(seen.local_depth == 10);
  CHECK(seen.global_depth == 0);
  CHECK(seen.local_schedules == 10);
  CHECK(seen.overflows == 0);
  std::vector<std::size_t> expected;
  for (std::size_t i = 0; i < 10; ++i) expected.push_back(i);
  CHECK(order == expected);  // one worker, one ring: first in, first out
}

TEST_CASE("a ring that overflows sends half of it and the new task to the global queue" * POINTS(2)) {
  std::vector<std::size_t> order;
  Seen seen = spawn_from_a_task(300, order);
  // 256 fill the ring; the 257th moves 128 + 1; 43 more follow in the ring.
  CHECK(seen.overflows == 1);
  CHECK(seen.global_depth == 129);
  CHECK(seen.local_depth == 171);
  CHECK(seen.local_schedules == 300);
  // The ring first (the older half, then the 43), then the global queue.
  std::vector<std::size_t> expected;
  for (std::size_t i = 0; i < 128; ++i) expected.push_back(i);
  for (std::size_t i = 257; i < 300; ++i) expected.push_back(i);
  for (std::size_t i = 128; i < 257; ++i) expected.push_back(i);
  CHECK(order == expected);
}

TEST_CASE("the tasks an overflow moves to the global queue wake a sleeping worker" * POINTS(1)) {
  rt::Builder builder = rt::Builder::new_multi_thread();
  builder.worker_threads(2);
#ifdef RT_HAS_LIFO_SLOT
  builder.disable_lifo_slot();
#endif
  rt::Runtime runtime = builder.build();
  std::uint64_t unparks = 0;
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      const rt::RuntimeMetrics metrics = rt::Handle::current().metrics();
      // The other worker sleeps: only a notify brings it to the global
      // queue. (The notifier counts the unpark it sends, in its thread.)
      rt_test::wait_until_idle(metrics, 1);
      auto sent = [&metrics] { return metrics.worker_unpark_count(0) + metrics.worker_unpark_count(1); };
      std::uint64_t before = sent();
      for (std::size_t i = 0; i <= 256; ++i) (void)rt::spawn([]() -> rt::Task<> { co_return; });  // the 257th overflows
      unparks = sent() - before;
      co_return;
    });
  }());
  CHECK_MESSAGE(unparks >= 1, "an overflow moved tasks to the global queue and woke no sleeping worker to run them");
}

TEST_CASE("a million tasks spawned on four workers each run exactly once" * POINTS(2)) {
  constexpr std::size_t parents = 1000;
  constexpr std::size_t children = 1000;
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
  auto runs = std::make_unique<std::atomic<std::uint8_t>[]>(parents * children);
  std::atomic<std::uint8_t>* counts = runs.get();
  runtime.block_on([counts]() -> rt::Task<> {
    std::vector<rt::JoinHandle<void>> spawned;
    for (std::size_t p = 0; p < parents; ++p) {
      spawned.push_back(rt::spawn([counts, p]() -> rt::Task<> {
        std::vector<rt::JoinHandle<void>> handles;
        handles.reserve(children);
        for (std::size_t c = 0; c < children; ++c) {
          handles.push_back(rt::spawn([counts, slot = p * children + c]() -> rt::Task<> {
            counts[slot].fetch_add(1, std::memory_order_relaxed);  // the join orders it
            co_return;
          }));
        }
        for (auto& handle : handles) co_await handle;
      }));
    }
    for (auto& handle : spawned) co_await handle;
  }());
  std::size_t lost = 0, twice = 0;
  for (std::size_t i = 0; i < parents * children; ++i) {
    std::uint8_t count = counts[i].load(std::memory_order_relaxed);
    if (count == 0) ++lost;
    if (count > 1) ++twice;
  }
  CHECK(lost == 0);
  CHECK(twice == 0);
  std::uint64_t polled = 0, local = 0;
  for (std::size_t w = 0; w < 4; ++w) {
    polled += runtime.metrics().worker_poll_count(w);
    local += runtime.metrics().worker_local_schedule_count(w);
  }
  CHECK(local >= parents * children);  // every child was spawned on a worker
  CHECK(polled >= parents * children + parents);
}
