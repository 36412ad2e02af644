// Chapter 04: shutdown frees the tasks still queued in the global queue.
// A leak fails here without AddressSanitizer: live_allocations.hpp counts
// the blocks allocated, and the test reads the count around a runtime's
// life.
#include <latch>
#include <thread>

#include "graded.hpp"
#include "live_allocations.hpp"
#include "rt/rt.hpp"

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
  long leaked = rt_test::leaked_by([] { shut_down_with_tasks_queued(kTasks); });
  CHECK_MESSAGE(leaked == 0, "the runtime shut down and left tasks that were queued in the global queue alive: "
                             "nobody gave up the references their queue held");
}
