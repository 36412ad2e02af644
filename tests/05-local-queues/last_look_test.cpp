// Chapter 05: a worker's last look before it sleeps covers its own ring.
// A task its own thread queues there as it goes to sleep wakes nobody (only
// this worker runs its ring), so that look is the only thing that finds it.
#include <atomic>
#include <cstddef>

#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"

namespace {

// Set by the test once the worker has nothing left to do: the next time
// the worker goes to sleep, it wakes this Notify's waiter itself, from its
// own thread, just before listing itself asleep.
std::atomic<rt::Notify*> notify_on_next_park{nullptr};

void notify_as_the_worker_parks(std::size_t) {
  if (rt::Notify* notify = notify_on_next_park.exchange(nullptr)) notify->notify_one();
}

}  // namespace

TEST_CASE("a task its own worker wakes as it goes to sleep is found by that worker's last look" * POINTS(1)) {
  rt::Notify notify;  // before the runtime: it outlives the runtime's tasks
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).build();
  rt_test::ParkHook hook(&notify_as_the_worker_parks);
  std::atomic<bool> ran{false};
  runtime.block_on([&]() -> rt::Task<> {
    auto waiter = rt::spawn([&]() -> rt::Task<> {
      co_await notify.notified();
      ran = true;
    });
    // The waiter waits and the one worker sleeps; from now on its next
    // sleep wakes the waiter into its own ring.
    rt_test::wait_until_idle(runtime.metrics(), 1);
    notify_on_next_park = &notify;
    // One task more wakes the worker; once it has run it, the worker goes
    // back to sleep, and the hook wakes the waiter on the way.
    co_await rt::spawn([]() -> rt::Task<> { co_return; });
    co_await waiter;  // a worker asleep over its own ring never runs it
  }());
  CHECK(ran.load());
  notify_on_next_park = nullptr;
}
