// Chapter 09: a thread with nothing to do sleeps inside the I/O driver
// (epoll_wait) when the driver is free, not on its condition variable, and
// new work from another thread still wakes it: the parker, in its
// parked_driver state, wakes it through the driver's eventfd, since no
// condition variable reaches a thread in epoll_wait. Each test waits until
// the thread really is in epoll_wait (the kernel says where a thread is
// blocked, in /proc/self/task/TID/syscall) before it spawns.
#include <sys/types.h>

#include <atomic>
#include <exception>
#include <string>
#include <thread>

#include "answer.hpp"
#include "graded.hpp"
#include "io.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/park.hpp"

TEST_CASE("a worker asleep in the driver wakes up for a task spawned from another thread" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(1).enable_io().build();
  pid_t worker = runtime.block_on([]() -> rt::Task<pid_t> {
    co_return co_await rt::spawn([]() -> rt::Task<pid_t> { co_return rt_test::current_tid(); });
  }());
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    rt_test::wait_until_idle(runtime.metrics(), 1);
    // Listed asleep, it has nothing left to do but park: in the driver,
    // which nobody else holds, not on its condition variable.
    long parked_in = rt_test::wait_until_asleep(worker);
    INFO("the worker sleeps in system call " << parked_in);
    REQUIRE(rt_test::is_epoll_wait(parked_in));
    // From the test's thread, not a worker: the only worker must be woken,
    // and it sleeps in epoll_wait. Left asleep, the task never runs.
    rt::JoinHandle<int> handle = runtime.handle().spawn(rt_test::answer());
    CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await handle; }()) == 42);
  }
}

namespace {

// A thread blocked on a current-thread runtime until `release`d; joined
// when it goes, released first, so that a failing test cannot leave it.
class Blocker {
 public:
  explicit Blocker(rt::Runtime& runtime) : runtime_(runtime) {
    thread_ = std::thread([this] {
      tid_ = rt_test::current_tid();
      try {
        runtime_.block_on([this]() -> rt::Task<> { co_await released_.notified(); }());
      } catch (const std::exception& error) {
        error_ = error.what();
      }
      returned_ = true;
    });
  }
  ~Blocker() {
    release();
    join();
  }

  // Blocks until the thread sleeps in epoll_wait, or has returned.
  void wait_until_asleep_in_driver() const {
    while (tid_.load() == 0) std::this_thread::yield();
    while (!returned_.load() && !rt_test::is_in_epoll_wait(tid_.load())) std::this_thread::yield();
  }
  // Wakes it through a task spawned from this thread.
  void release() {
    if (released_once_.exchange(true)) return;
    try {
      (void)runtime_.handle().spawn([this]() -> rt::Task<> {
        released_.notify_one();
        co_return;
      });
    } catch (const std::exception&) {
      // Its runtime cannot take a task: the block_on has failed already.
    }
  }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  // Whether its block_on has returned, and what it threw, if anything.
  bool returned() const { return returned_.load(); }
  const std::string& error() const { return error_; }

 private:
  rt::Runtime& runtime_;
  rt::Notify released_;
  std::atomic<pid_t> tid_{0};
  std::atomic<bool> released_once_{false};
  std::atomic<bool> returned_{false};
  std::string error_;  // written by the thread before returned_
  std::thread thread_;  // last: it uses the members above
};

}  // namespace

TEST_CASE("a thread asleep in the driver inside block_on wakes up for a task spawned from another thread" * POINTS(2)) {
  rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().build();
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    Blocker blocker(runtime);
    // It holds the core, has no task to run, and parks in the free driver.
    blocker.wait_until_asleep_in_driver();
    blocker.release();
    blocker.join();  // left asleep, it never returns
    CHECK(blocker.returned());
    REQUIRE(blocker.error() == "");
  }
  CHECK(runtime.block_on(rt_test::answer()) == 42);
}

namespace {

rt::detail::Parker* unpark_target = nullptr;
void unpark_now(rt::detail::Parker& parker) {
  if (&parker == unpark_target) parker.unpark();
}

}  // namespace

TEST_CASE("an unpark that lands as a thread takes the driver to sleep in it makes that park return" * POINTS(2)) {
  // The moment: the thread has taken the driver and is about to record
  // that it sleeps there; the unpark finds it awake and leaves only the
  // notification. Overwriting that notification sleeps in epoll_wait for
  // good: a helper watches for that, and wakes the driver so that the test
  // can say so instead of hanging.
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    std::atomic<bool> returned{false};
    std::atomic<bool> rescued{false};
    runtime.block_on([&]() -> rt::Task<> {
      rt::detail::Driver& driver = rt_test::current_driver();
      rt::detail::Parker parker(&driver);
      pid_t sleeper = static_cast<pid_t>(::syscall(SYS_gettid));
      std::thread watcher([&] {
        while (!returned.load()) {
          if (rt_test::in_epoll_wait(sleeper)) {
            rescued = true;
            driver.unpark();
            return;
          }
          std::this_thread::yield();
        }
      });
      unpark_target = &parker;
      rt::detail::before_park_driver.store(&unpark_now);
      parker.park();
      rt::detail::before_park_driver.store(nullptr);
      unpark_target = nullptr;
      returned = true;
      watcher.join();
      co_return;
    }());
    INFO("the notification came before the thread recorded its sleep: park must return, not sleep in epoll_wait");
    CHECK_FALSE(rescued.load());
  });
}

TEST_CASE("a park while another thread holds the driver sleeps on the condition variable until unparked" * POINTS(2)) {
  // Two threads of one runtime park at once: one sleeps in the driver,
  // the other on its condition variable. A park that returns at once
  // instead has its thread look for work and park again, round and round:
  // an idle runtime that burns a core.
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    runtime.block_on([&]() -> rt::Task<> {
      rt::detail::Driver& driver = rt_test::current_driver();
      REQUIRE(driver.try_lock());  // this thread holds it, as a thread asleep in it would
      rt::detail::Parker parker(&driver);
      std::atomic<pid_t> tid{0};
      std::atomic<bool> returned{false};
      std::thread sleeper([&] {
        tid = rt_test::current_tid();
        parker.park();
        returned = true;
      });
      while (tid.load() == 0) std::this_thread::yield();
      // Asleep (on a futex) or back: whichever comes first.
      while (!returned.load() && rt_test::blocked_in(tid.load()) != SYS_futex) std::this_thread::yield();
      INFO("the driver is held by another thread: park must sleep on the condition variable, not return");
      CHECK_FALSE(returned.load());
      parker.unpark();
      sleeper.join();
      driver.unlock();
      CHECK(returned.load());
      co_return;
    }());
  });
}
