// Chapter 02's experiment: what a task costs in allocations and time, and
// what a wake-up costs, with the task cell (chapter 02) and with chapter
// 01's shared_ptr task. The same source builds against both:
//
//   build/experiments/02-wakers          chapter 02's runtime
//   build/experiments/02-wakers-on-01    chapter 01's runtime
//
// Run both on the same machine and compare the columns. Figures are from
// one run, per operation; nothing here is asserted.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fmt/core.h>
#include <new>
#include <optional>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

// g++ 12 inlines these hooks and then mistakes their malloc/free pairs for
// a mismatch with the new-expressions that call them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

// Counting allocation hooks, for the whole program.
namespace {
std::atomic<long> allocations{0};
std::atomic<long> bytes_requested{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  bytes_requested.fetch_add(static_cast<long>(size), std::memory_order_relaxed);
  if (void* block = std::malloc(size ? size : 1)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }

namespace {

using Clock = std::chrono::steady_clock;

double nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

rt::Task<int> nothing() { co_return 0; }

struct SpawnFigures {
  double allocations_per_spawn = 0;
  double allocations_per_task = 0;  // spawn, run and join
  double spawn_ns = 0;
  double task_ns = 0;  // spawn, run and join
};

rt::Task<> spawn_many(int count, SpawnFigures& figures) {
  std::vector<rt::JoinHandle<int>> handles;
  handles.reserve(count);
  long allocated = allocations.load();
  auto start = Clock::now();
  for (int i = 0; i < count; ++i) handles.push_back(rt::spawn(nothing()));
  figures.spawn_ns = nanoseconds_since(start) / count;
  figures.allocations_per_spawn = double(allocations.load() - allocated) / count;
  for (auto& handle : handles) co_await handle;
  handles.clear();
  figures.task_ns = nanoseconds_since(start) / count;
  figures.allocations_per_task = double(allocations.load() - allocated) / count;
}

// A leaf that is never ready and keeps its waker.
class Park : public rt::Leaf<Park> {
 public:
  explicit Park(rt::Waker& slot) : slot_(slot) {}
  bool poll(rt::Context& cx) override {
    if (!slot_.will_wake(cx.waker())) slot_ = cx.waker();
    return false;
  }
  void await_resume() const noexcept {}

 private:
  rt::Waker& slot_;
};

rt::Task<> park_forever(rt::Waker& slot) { co_await Park(slot); }

struct WakeFigures {
  double wake_and_poll_ns = 0;   // wake_by_ref of an idle task, then its poll
  double redundant_wake_ns = 0;  // wake_by_ref of a task already queued
  double clone_drop_ns = 0;      // copy a waker and destroy the copy
};

// `waker` must outlive the runtime: the parked task keeps writing to it.
rt::Task<> wake_many(int count, rt::Waker& waker, WakeFigures& figures) {
  auto handle = rt::spawn(park_forever(waker));
  co_await rt::yield_now();  // it parks, and leaves its waker

  auto start = Clock::now();
  for (int i = 0; i < count; ++i) {
    waker.wake_by_ref();       // queues it
    co_await rt::yield_now();  // and lets it run: one poll
  }
  figures.wake_and_poll_ns = nanoseconds_since(start) / count;

  waker.wake_by_ref();  // queued now: every further wake is redundant
  start = Clock::now();
  for (int i = 0; i < count; ++i) waker.wake_by_ref();
  figures.redundant_wake_ns = nanoseconds_since(start) / count;
}  // the parked task is destroyed with the runtime

// Copies a waker and destroys the copy, `count` times.
double clone_and_drop(const rt::Waker& waker, int count) {
  auto start = Clock::now();
  for (int i = 0; i < count; ++i) {
    rt::Waker copy = waker;
    (void)copy;
  }
  return nanoseconds_since(start) / count;
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 02: allocations and time per spawn, and the cost of a wake-up"};
  int tasks = 200'000;
  int wakes = 1'000'000;
  cli.positive("--tasks", tasks, "empty tasks to spawn");
  cli.positive("--wakes", wakes, "wake-ups of one task");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  // What calling a coroutine allocates when it is never spawned: from
  // chapter 02 on, this includes the room for a task cell.
  long bytes_before = bytes_requested.load();
  long allocations_before = allocations.load();
  { auto unspawned = nothing(); }
  long frame_bytes = bytes_requested.load() - bytes_before;
  long frame_allocations = allocations.load() - allocations_before;

  SpawnFigures spawn;
  WakeFigures wake;
  rt::Waker task_waker;  // a parked task's, kept past the runtime
  {
    rt::Runtime runtime;
    runtime.block_on(spawn_many(tasks, spawn));
    runtime.block_on(wake_many(wakes, task_waker, wake));
    wake.clone_drop_ns = clone_and_drop(task_waker, wakes);
  }

  fmt::print("{:<44} {:>18}\n", "runtime", EXPERIMENT_RUNTIME);
  fmt::print("{:<52} {:>10.2f}\n", "allocations per spawn (frame included)", spawn.allocations_per_spawn);
  fmt::print("{:<52} {:>10.2f}\n", "allocations per task (spawn, run, join)", spawn.allocations_per_task);
  fmt::print("{:<52} {:>10}\n", "bytes allocated for an unspawned Task<int>", frame_bytes);
  fmt::print("{:<52} {:>10}\n", "  in allocations", frame_allocations);
  fmt::print("{:<52} {:>10.1f}\n", "ns per spawn", spawn.spawn_ns);
  fmt::print("{:<52} {:>10.1f}\n", "ns per task (spawn, run, join)", spawn.task_ns);
  fmt::print("{:<52} {:>10.1f}\n", "ns per wake of an idle task, with its poll", wake.wake_and_poll_ns);
  fmt::print("{:<52} {:>10.1f}\n", "ns per wake of a task already queued", wake.redundant_wake_ns);
  fmt::print("{:<52} {:>10.1f}\n", "ns per waker clone and drop", wake.clone_drop_ns);
  return 0;
}
