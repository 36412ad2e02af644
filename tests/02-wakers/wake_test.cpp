// Chapter 02: a wake-up queues its task at most once, whoever sends it,
// whenever it comes: during a poll, from many threads at once, or after
// the task has finished.
#include <atomic>
#include <latch>
#include <thread>
#include <vector>

#include "gate.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Threads that each wake `waker` `rounds` times, by reference and by value
// (a clone woken and so dropped), all starting together. The destructor
// joins them, so a check that fails early leaves no thread behind.
class WakeStorm {
 public:
  WakeStorm(const rt::Waker& waker, int threads, int rounds) : start_(threads) {
    for (int t = 0; t < threads; ++t) {
      threads_.emplace_back([this, waker, rounds] {
        start_.arrive_and_wait();
        for (int i = 0; i < rounds; ++i) {
          waker.wake_by_ref();
          rt::Waker clone = waker;
          clone.wake();
        }
      });
    }
  }
  ~WakeStorm() { join(); }
  void join() {
    for (auto& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

 private:
  std::latch start_;
  std::vector<std::thread> threads_;
};

// A leaf that is never ready. On its first poll it wakes its own task:
// `own_wakes` times from inside the poll, then with a storm of wakes from
// other threads, also during the poll. It counts its polls.
class WakeDuringPoll : public rt::Leaf<WakeDuringPoll> {
 public:
  WakeDuringPoll(std::atomic<int>& polls, int own_wakes, int storm_threads)
      : polls_(polls), own_wakes_(own_wakes), storm_threads_(storm_threads) {}
  bool poll(rt::Context& cx) override {
    if (++polls_ > 1) return false;
    for (int i = 0; i < own_wakes_; ++i) cx.waker().wake_by_ref();
    rt::Waker clone = cx.waker();
    clone.wake();
    if (storm_threads_ > 0) WakeStorm(cx.waker(), storm_threads_, 1000).join();
    return false;
  }
  void await_resume() const noexcept {}

 private:
  std::atomic<int>& polls_;
  int own_wakes_;
  int storm_threads_;
};

rt::Task<> wake_during_poll(std::atomic<int>& polls, int own_wakes, int storm_threads) {
  co_await WakeDuringPoll(polls, own_wakes, storm_threads);
}

// Spawns a task that wakes itself during its first poll, waits for its
// second poll, then gives it plenty of turns to be polled again.
rt::Task<> spawn_waking_task(std::atomic<int>& polls, int own_wakes, int storm_threads) {
  auto handle = rt::spawn(wake_during_poll(polls, own_wakes, storm_threads));
  while (polls < 2) co_await rt::yield_now();
  for (int i = 0; i < 10; ++i) co_await rt::yield_now();
}

rt::Task<> wait_on(Gate& gate) { co_await gate.wait(); }

// Storms an idle task's waker from other threads while the runtime's
// thread is busy (blocked in this poll), then lets the runtime run; after
// each round, records how often the task has been polled.
rt::Task<std::vector<int>> storm_idle_task(Gate& gate, int rounds) {
  auto handle = rt::spawn(wait_on(gate));
  co_await rt::yield_now();  // the task reaches the gate and leaves its waker
  REQUIRE(gate.polls() == 1);
  rt::Waker waker = gate.waker();
  std::vector<int> polls;
  for (int round = 0; round < rounds; ++round) {
    WakeStorm(waker, 4, 1000).join();
    for (int i = 0; i < 5; ++i) co_await rt::yield_now();
    polls.push_back(gate.polls());
  }
  co_return polls;
}

// A leaf that keeps its waker in `slot`, wakes itself, and is ready the
// second time it is polled.
class ReadyOnSecondPoll : public rt::Leaf<ReadyOnSecondPoll> {
 public:
  ReadyOnSecondPoll(int& polls, rt::Waker& slot) : polls_(polls), slot_(slot) {}
  bool poll(rt::Context& cx) override {
    if (++polls_ > 1) return true;
    slot_ = cx.waker();
    slot_.wake_by_ref();
    return false;
  }
  void await_resume() const noexcept {}

 private:
  int& polls_;
  rt::Waker& slot_;
};

rt::Task<int> finish_then_keep_waker(int& polls, rt::Waker& slot) {
  co_await ReadyOnSecondPoll(polls, slot);
  co_return 5;
}

rt::Task<int> wake_after_completion(int& polls, rt::Waker& slot) {
  auto handle = rt::spawn(finish_then_keep_waker(polls, slot));
  int value = co_await handle;
  slot.wake_by_ref();
  rt::Waker clone = slot;
  clone.wake();
  slot.wake();  // by value: the last waker
  for (int i = 0; i < 5; ++i) co_await rt::yield_now();
  co_return handle.is_finished() ? value : -1;
}

// The storm for ThreadSanitizer: once the task waits on the gate, four
// threads clone, wake and drop its waker, while the runtime polls it;
// then the gate opens.
class CloneWakeDropStorm {
 public:
  explicit CloneWakeDropStorm(Gate& gate)
      : gate_(gate), director_([&gate] {
          gate.wait_until_polled();
          rt::Waker waker = gate.waker();
          {
            std::latch start(4);
            std::vector<std::jthread> threads;
            for (int t = 0; t < 4; ++t) {
              threads.emplace_back([&start, &waker] {
                start.arrive_and_wait();
                for (int i = 0; i < 2000; ++i) {
                  rt::Waker first = waker;  // clone
                  rt::Waker second = first;
                  second.wake();            // wake by value: drops `second`
                  first.wake_by_ref();
                  rt::Waker third = first;  // dropped unwoken
                }
              });
            }
          }
          gate.open();
        }) {}
  ~CloneWakeDropStorm() {
    gate_.open();  // so that a test that failed early cannot hang here
    director_.join();
  }

 private:
  Gate& gate_;
  std::thread director_;
};

}  // namespace

TEST_CASE("a wake during a poll gives exactly one more poll" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    std::atomic<int> polls{0};
    runtime.block_on(spawn_waking_task(polls, 100, 0));
    CHECK(polls == 2);
  });
}

TEST_CASE("thousands of wakes from four threads during a poll give one more poll" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    std::atomic<int> polls{0};
    runtime.block_on(spawn_waking_task(polls, 0, 4));
    CHECK(polls == 2);
  });
}

TEST_CASE("thousands of wakes from four threads queue an idle task once" * POINTS(3)) {
  // The storms come while the one thread that runs tasks is busy, so the
  // task cannot be polled until a storm is over: a current-thread runtime's
  // property (a worker would poll it during the storm, and rightly again).
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    Gate gate;
    std::vector<int> polls = runtime.block_on(storm_idle_task(gate, 5));
    // One poll before the storms, then exactly one per storm.
    CHECK(polls == std::vector<int>{2, 3, 4, 5, 6});
  });
}

TEST_CASE("waking a task after it completed does nothing" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    int polls = 0;
    rt::Waker slot;
    CHECK(runtime.block_on(wake_after_completion(polls, slot)) == 5);
    CHECK(polls == 2);
    CHECK_FALSE(slot);
  });
}

TEST_CASE("a clone-wake-drop storm from four threads while the task runs" * POINTS(3)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    Gate gate;
    int value = 0;
    {
      CloneWakeDropStorm storm(gate);
      value = runtime.block_on([&]() -> rt::Task<int> {
        auto handle = rt::spawn([&]() -> rt::Task<int> {
          co_await gate.wait();
          co_return 9;
        });
        co_return co_await handle;
      }());
    }
    CHECK(value == 9);
    CHECK(gate.polls() >= 2);  // pending, then ready once the gate opened
  });
}
