// Chapter 07: what the slot changes in the runtime's counts. A task that
// goes into an empty slot wakes no other worker: nothing there is theirs to
// take. And the polls of the slot's tasks are polls like any other, counted
// in the worker's poll count. Both are read off counters that change in the
// same thread as the event (a notifier counts the unpark it sends), so no
// timing decides what the test sees.
#include <cstdint>

#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"

namespace {

// Every unpark sent to any worker so far.
std::uint64_t unparks_sent(const rt::RuntimeMetrics& metrics) {
  std::uint64_t sent = 0;
  for (std::size_t worker = 0; worker < metrics.num_workers(); ++worker) sent += metrics.worker_unpark_count(worker);
  return sent;
}

}  // namespace

TEST_CASE("a task put into an empty slot wakes no other worker" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(2).build();
  std::uint64_t before = 0;
  std::uint64_t after_spawn = 0;
  std::uint64_t after_wake = 0;
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      const rt::RuntimeMetrics metrics = rt::Handle::current().metrics();
      // The other worker sleeps: a notify now would have to wake it.
      rt_test::wait_until_idle(metrics, 1);
      before = unparks_sent(metrics);
      auto child = rt::spawn([]() -> rt::Task<> { co_return; });  // into the empty slot
      after_spawn = unparks_sent(metrics);
      co_await child;  // its completion wakes this task: into the slot again
      after_wake = unparks_sent(metrics);
    });
  }());
  CHECK_MESSAGE(after_spawn == before, "a task spawned into the empty slot woke another worker");
  CHECK_MESSAGE(after_wake == before, "a task woken into the empty slot woke another worker");
}

TEST_CASE("the polls of the slot's tasks are counted in the worker's poll count" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  std::uint64_t during_first_poll = 0;
  std::uint64_t during_last_poll = 0;
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      const rt::RuntimeMetrics metrics = rt::Handle::current().metrics();
      during_first_poll = metrics.worker_poll_count(0);
      auto child = rt::spawn([]() -> rt::Task<> { co_return; });  // into the slot
      co_await child;
      during_last_poll = metrics.worker_poll_count(0);
    });
  }());
  // Between the two: the child's poll from the slot, then this task's own
  // second poll, from the slot too, once the child had woken it.
  CHECK_MESSAGE(during_last_poll - during_first_poll == 2,
                "the worker's poll count missed the polls of tasks run from the LIFO slot");
}
