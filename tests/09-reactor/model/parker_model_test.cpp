// Chapter 09, under the model checker: the parker's state word. Every
// schedule of a park against an unpark (with at most two preemptions) is
// run, and a thread that sleeps for good is a deadlock the checker reports.
// These are the driver-less paths (the condition variable and the
// notification); the driver's own sleep is an epoll_wait, which the
// reactor's other tests exercise.
#include "model.hpp"
#include "rt/scheduler/park.hpp"

TEST_CASE("model: an unpark from another thread always wakes a park whenever it lands" * POINTS(3)) {
  rt_test::explore([] {
    rt::detail::Parker parker;
    model::thread sleeper([&] { parker.park(); });
    parker.unpark();
    sleeper.join();
  });
}

TEST_CASE("model: after a wake-up the parker is empty again: the next park sleeps until the next unpark" * POINTS(2)) {
  rt_test::explore([] {
    rt::detail::Parker parker;
    model::atomic<int> woken{0};
    model::thread sleeper([&] {
      parker.park();
      woken.store(1, std::memory_order_release);
      parker.park();
      woken.store(2, std::memory_order_release);
    });
    parker.unpark();
    while (woken.load(std::memory_order_acquire) == 0) model::yield_now();
    model::check(woken.load(std::memory_order_acquire) == 1, "one unpark woke the sleeper twice");
    parker.unpark();
    sleeper.join();
  });
}

TEST_CASE("model: two unparks from two threads wake one park and leave one notification" * POINTS(2)) {
  rt_test::explore([] {
    rt::detail::Parker parker;
    model::thread first([&] { parker.unpark(); });
    model::thread second([&] { parker.unpark(); });
    parker.park();
    first.join();
    second.join();
  });
}
