// Chapter 04: the global queue is first in, first out; and the idle set's
// count says exactly who sleeps: a worker that is about to go to sleep, or
// that found work on its last look, is not counted asleep.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "answer.hpp"
#include "fake_tasks.hpp"
#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/inject.hpp"
#include "show.hpp"

namespace {

// What the hook below sees and does at every moment the worker has found
// no work and is about to list itself asleep.
struct Watch {
  std::optional<rt::RuntimeMetrics> metrics;
  std::optional<rt::Handle> handle;
  std::atomic<std::size_t> most_counted_asleep{0};  // of the workers, at those moments
  std::atomic<bool> spawn_armed{false};
  std::promise<rt::JoinHandle<int>> spawned;
};
std::atomic<Watch*> watching{nullptr};  // read by the worker in the hook

void look_as_worker_parks(std::size_t) {
  Watch* watch = watching.load();
  if (!watch) return;
  std::size_t asleep = watch->metrics->num_idle_workers();
  std::size_t most = watch->most_counted_asleep.load();
  while (asleep > most && !watch->most_counted_asleep.compare_exchange_weak(most, asleep)) {
  }
  // A task queued now finds nobody listed to wake: the worker's last look,
  // after it lists itself, is what finds it.
  if (watch->spawn_armed.exchange(false)) watch->spawned.set_value(watch->handle->spawn(rt_test::answer()));
}

// Blocks until worker 0 has gone to sleep more than `parks` times: past its
// last look, so that a wake-up now comes from a notifier and no other way.
void wait_until_asleep(const rt::RuntimeMetrics& metrics, std::uint64_t parks) {
  while (metrics.worker_park_count(0) <= parks) std::this_thread::yield();
}

}  // namespace

TEST_CASE("the global queue hands out its tasks oldest first" * POINTS(1)) {
  FakeTasks tasks(4);  // real task headers, never polled
  rt::detail::Inject inject;
  for (std::size_t i = 0; i < tasks.size(); ++i) REQUIRE(inject.push(tasks[i]));
  std::vector<std::size_t> order = tasks.drain(inject);
  const std::vector<std::size_t> oldest_first{0, 1, 2, 3};
  CHECK_MESSAGE(order == oldest_first, "the global queue ran a newer task first");
}

TEST_CASE("a worker about to sleep or that found work on its last look is never counted asleep" * POINTS(2)) {
  Watch watch;  // outlives the runtime, whose worker reads it
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  watch.metrics = runtime.metrics();
  watch.handle = runtime.handle();
  watching = &watch;
  rt_test::ParkHook hook(&look_as_worker_parks);
  const rt::RuntimeMetrics& metrics = *watch.metrics;
  wait_until_asleep(metrics, 0);
  // A task from outside: a notifier takes the sleeper off the list and
  // wakes it; it runs the task and goes back to sleep.
  std::uint64_t parks = metrics.worker_park_count(0);
  CHECK(runtime.block_on([]() -> rt::Task<int> { co_return co_await rt::spawn(rt_test::answer()); }()) == 42);
  wait_until_asleep(metrics, parks);
  CHECK_MESSAGE(watch.most_counted_asleep == 0,
                "a worker woken for a task was still counted asleep: the idle count and the list of sleepers disagree");
  // Again, and this time, as the worker goes back to sleep, a task is
  // queued just before it lists itself: its last look finds it, and it
  // runs it, and goes to sleep again.
  parks = metrics.worker_park_count(0);
  watch.spawn_armed = true;
  CHECK(runtime.block_on([]() -> rt::Task<int> { co_return co_await rt::spawn(rt_test::answer()); }()) == 42);
  rt::JoinHandle<int> late = watch.spawned.get_future().get();
  CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await late; }()) == 42);
  wait_until_asleep(metrics, parks);
  CHECK_MESSAGE(watch.most_counted_asleep == 0,
                "a worker that found work on its last look before sleeping stayed counted asleep while it ran");
  watching = nullptr;
}
