// Chapter 10, under the model checker: a Sleep's owner against the time
// driver, on two threads. Each body builds a current-thread runtime whose
// clock starts paused, so that the driver never sleeps in epoll_wait: with
// timers in the wheel, park() looks at I/O without waiting (turn(0)) and,
// if no wake-up came, moves the clock to the next timer and fires it. Its
// `park(1000)` is thus "sleep towards the next timer, then fire", and a
// wake-up written meanwhile (the eventfd) is what a real sleep would have
// returned for. Every schedule within the bound is run.
#include <atomic>
#include <memory>
#include <optional>

#include "counting_waker.hpp"
#include "model.hpp"
#include "rt/rt.hpp"
#include "rt/runtime/context.hpp"
#include "rt/runtime/driver.hpp"

namespace {

using rt::detail::TimeDriver;
using rt::time::Sleep;

// Runs body(time driver, I/O driver) inside block_on on a fresh runtime
// with a paused clock, at tick 0. The tests keep their sleeps and wakers
// outside, so that they outlive the runtime, whose shutdown fires every
// timer left: a wrong drop that leaves its entry in the wheel then fails
// a check rather than touching a sleep that is gone.
template <class Body>
void with_paused_timers(Body body) {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_time().start_paused(true).build();
  runtime.block_on([&]() -> rt::Task<> {
    rt::detail::Driver* driver = rt::detail::current_handle()->driver();
    body(*driver->time(), *driver->io_shared());
    co_return;
  }());
}

// A waker that remembers which modelled thread woke it first.
class ThreadWaker {
 public:
  ThreadWaker() : waker_(rt::Waker::from_raw({this, &vtable})) {}
  ThreadWaker(const ThreadWaker&) = delete;
  ThreadWaker& operator=(const ThreadWaker&) = delete;

  const rt::Waker& waker() const { return waker_; }
  // The thread that woke it (0: the body's), or -1: never woken.
  int woken_by() const { return woken_by_.load(); }

 private:
  static ThreadWaker& self(const void* data) { return *static_cast<ThreadWaker*>(const_cast<void*>(data)); }
  static rt::RawWaker clone(const void* data) { return {data, &vtable}; }
  static void wake(const void* data) { wake_by_ref(data); }
  static void wake_by_ref(const void* data) {
    int never = -1;
    self(data).woken_by_.compare_exchange_strong(never, model::this_thread::get_id());
  }
  static void drop(const void*) {}

  static constexpr rt::RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  std::atomic<int> woken_by_{-1};
  rt::Waker waker_;  // last: it refers to the field above
};

}  // namespace

TEST_CASE("model: a sleep dropped while the driver fires it is fired or removed and never left in the wheel" * POINTS(3)) {
  rt_test::explore([] {
    CountingWaker waker;
    std::optional<Sleep> sleep;
    with_paused_timers([&](TimeDriver& driver, rt::detail::IoDriver&) {
      sleep.emplace(driver.tick_to_instant(5));
      {
        rt::Context cx(waker.waker());
        model::check(!sleep->poll(cx), "a sleep of 5 ms is ready at once");
      }
      driver.park(0);  // takes the registration's wake-up: the next park sleeps
      model::thread firing([&] { driver.park(1000); });  // the clock moves to 5 ms: the timer fires
      sleep.reset();  // the owner drops the sleep meanwhile
      model::check(driver.num_timers() == 0,
                   "a dropped sleep is still in the wheel: the driver will fire a timer that no longer exists");
      firing.join();
      model::check(waker.wakes() <= 1, "the timer's waker was woken twice");
      model::check(waker.held() == 0, "the timer's waker was neither woken nor dropped: the task it stands for leaks");
      model::check(driver.num_timers() == 0, "the wheel still counts a timer");
    });
  });
}

TEST_CASE("model: a sleep polled by a new task while the driver fires it wakes that task or sees that it elapsed" * POINTS(2)) {
  rt_test::explore([] {
    CountingWaker first, second;
    std::optional<Sleep> sleep;
    with_paused_timers([&](TimeDriver& driver, rt::detail::IoDriver&) {
      sleep.emplace(driver.tick_to_instant(5));
      {
        rt::Context cx(first.waker());
        model::check(!sleep->poll(cx), "a sleep of 5 ms is ready at once");
      }
      driver.park(0);  // takes the registration's wake-up: the next park sleeps
      bool ready = false;
      model::thread poller([&] {  // the sleep moved to another task, which polls it
        rt::Context cx(second.waker());
        ready = sleep->poll(cx);
      });
      driver.park(1000);  // the clock moves to 5 ms: the timer fires
      poller.join();
      if (ready) {
        model::check(first.wakes() == 1 && second.wakes() == 0, "the poll saw the timer fired, but not the one waker it had then");
      } else {
        model::check(second.wakes() == 1,
                     "the poll returned pending with its new waker, and the timer fired without waking it: that task sleeps for ever");
        model::check(first.wakes() == 0, "the replaced waker was woken");
      }
      model::check(first.held() == 0 && second.held() == 0, "a waker the sleep held was never dropped");
    });
  });
}

TEST_CASE("model: a sleep reset from another thread to a deadline sooner than the driver sleeps towards wakes the driver" * POINTS(2)) {
  // The driver sleeps towards 10 ms (the sooner of two timers); another
  // thread moves the 20 ms timer to 5 ms. Unless the driver has read the
  // wheel since, the reset must write the wake-up that a real sleep
  // returns for: the driver fires the timer late only while that
  // wake-up is still waiting for it.
  rt_test::explore([] {
    CountingWaker sooner;
    ThreadWaker moved;
    std::optional<Sleep> at_10, at_20;
    with_paused_timers([&](TimeDriver& driver, rt::detail::IoDriver& io) {
      at_10.emplace(driver.tick_to_instant(10));
      at_20.emplace(driver.tick_to_instant(20));
      {
        rt::Context cx(sooner.waker());
        model::check(!at_10->poll(cx), "a sleep of 10 ms is ready at once");
      }
      {
        rt::Context cx(moved.waker());
        model::check(!at_20->poll(cx), "a sleep of 20 ms is ready at once");
      }
      driver.park(0);  // takes the registrations' wake-up: the driver sleeps towards 10 ms
      model::thread resetter([&] { at_20->reset(driver.tick_to_instant(5)); });
      driver.park(1000);
      resetter.join();
      bool fired_late = moved.woken_by() == 0 && driver.now_tick() > 5;
      if (fired_late) {
        model::check(io.turn(0) > 0,
                     "the timer moved to 5 ms while the driver slept towards 10 ms, and nothing woke the driver: "
                     "it fired the timer late");
      }
    });
  });
}

TEST_CASE("model: a sleep registered from another thread sooner than the driver sleeps towards wakes the driver" * POINTS(2)) {
  rt_test::explore([] {
    CountingWaker later;
    ThreadWaker sooner;
    std::optional<Sleep> at_10, at_5;
    with_paused_timers([&](TimeDriver& driver, rt::detail::IoDriver& io) {
      at_10.emplace(driver.tick_to_instant(10));
      at_5.emplace(driver.tick_to_instant(5));
      {
        rt::Context cx(later.waker());
        model::check(!at_10->poll(cx), "a sleep of 10 ms is ready at once");
      }
      driver.park(0);  // takes the registration's wake-up: the driver sleeps towards 10 ms
      model::thread registrar([&] {  // its first poll registers it (ready if the clock is past 5 ms already)
        rt::Context cx(sooner.waker());
        (void)at_5->poll(cx);
      });
      driver.park(1000);
      registrar.join();
      bool fired_late = sooner.woken_by() == 0 && driver.now_tick() > 5;
      if (fired_late) {
        model::check(io.turn(0) > 0,
                     "a 5 ms timer was registered while the driver slept towards 10 ms, and nothing woke the driver: "
                     "it fired the timer late");
      }
    });
  });
}
