// Chapter 05: shutdown frees the tasks still queued in the workers' rings,
// as chapter 04's frees those of the global queue. A leak fails here
// without AddressSanitizer: live_allocations.hpp counts the blocks
// allocated, and the test reads the count around a runtime's life.
#include <latch>
#include <thread>

#include "graded.hpp"
#include "live_allocations.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> never_runs() { co_return 1; }

// Back to the end of its worker's ring, again and again: whenever the
// worker stops, this task is queued there.
rt::Task<> yields_for_ever() {
  for (;;) co_await rt::yield_now();
}

// A runtime whose one worker is held by a task that has spawned `count`
// tasks into its own ring, each of which yields for ever; the worker is let
// go only once the shutdown has closed the global queue (which empties it
// of the one task the test put there to see that moment), so it leaves its
// loop with those tasks in its ring.
void shut_down_with_tasks_in_the_ring(int count) {
  std::latch started(1);
  std::latch canary_queued(1);
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  rt::RuntimeMetrics metrics = runtime.metrics();
  (void)runtime.spawn([&started, &canary_queued, metrics, count]() -> rt::Task<> {
    started.count_down();
    canary_queued.wait();
    for (int i = 0; i < count; ++i) (void)rt::spawn(yields_for_ever());  // into this worker's ring
    while (metrics.global_queue_depth() != 0) std::this_thread::yield();
    co_return;
  });
  started.wait();
  (void)runtime.spawn(never_runs());  // the canary, in the global queue
  canary_queued.count_down();
}

}  // namespace

TEST_CASE("shutdown frees the tasks still queued in the workers' rings" * POINTS(1)) {
  constexpr int kTasks = 20;
  long leaked = rt_test::leaked_by([] { shut_down_with_tasks_in_the_ring(kTasks); });
  CHECK_MESSAGE(leaked == 0, "the runtime shut down and left the tasks queued in a worker's ring alive: "
                             "nobody gave up the references the ring held");
}
