// Chapter 04: shutdown frees the tasks still queued in the global queue.
// A leak fails here without AddressSanitizer: this file replaces the global
// operator new and delete with versions that count, for the whole test
// binary, and the test reads the count around a runtime's life.
#include <atomic>
#include <cstdlib>
#include <latch>
#include <new>
#include <thread>

#include "graded.hpp"
#include "rt/rt.hpp"

// g++ 12 inlines these hooks and then mistakes their malloc/free pairs for
// a mismatch with the new-expressions that call them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {

std::atomic<long> allocations{0};
std::atomic<long> frees{0};

long live() { return allocations.load() - frees.load(); }

}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size ? size : 1)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept {
  if (!block) return;
  frees.fetch_add(1, std::memory_order_relaxed);
  std::free(block);
}
void operator delete(void* block, std::size_t) noexcept { operator delete(block); }

namespace {

rt::Task<int> never_runs() { co_return 1; }

// A runtime whose one worker is held by a task while `count` tasks wait in
// the global queue, detached; the runtime shuts down with them queued.
void shut_down_with_tasks_queued(int count) {
  std::latch started(1);
  std::latch queued(1);
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  rt::RuntimeMetrics metrics = runtime.metrics();
  (void)runtime.spawn([&started, &queued, metrics]() -> rt::Task<> {
    started.count_down();
    queued.wait();
    // Holds the worker until the shutdown closes the global queue, which
    // empties it: nobody else takes the tasks out.
    while (metrics.global_queue_depth() != 0) std::this_thread::yield();
    co_return;
  });
  started.wait();
  for (int i = 0; i < count; ++i) (void)runtime.spawn(never_runs());
  queued.count_down();
}

}  // namespace

TEST_CASE("shutdown frees the tasks still queued in the global queue" * POINTS(2)) {
  constexpr int kTasks = 20;
  shut_down_with_tasks_queued(kTasks);  // a first run makes what stays allocated once made
  long before = live();
  shut_down_with_tasks_queued(kTasks);
  long leaked = live() - before;
  CHECK_MESSAGE(leaked == 0, "the runtime shut down and left tasks that were queued in the global queue alive: "
                             "nobody gave up the references their queue held");
}
