// Chapter 11: the blocking pool's threads. A job goes to an idle thread
// if there is one, else to a new thread while there are fewer than the
// cap, else it waits in a FIFO queue; an idle thread leaves after the
// keep-alive. Counted with the pool's metrics, at moments when nothing
// else can change them.
#include <atomic>
#include <mutex>
#include <vector>

#include "blocking.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

using namespace std::chrono_literals;

namespace {

rt::Task<> join_all(std::vector<rt::JoinHandle<void>>& jobs) {
  for (rt::JoinHandle<void>& job : jobs) co_await job;
}

}  // namespace

TEST_CASE("with max_blocking_threads(2) ten jobs start two threads and the other eight wait" * POINTS(2)) {
  ch11::on_each_flavour(
      [](rt::Runtime& runtime) {
        ch11::Flag release;
        std::atomic<int> running{0};
        std::atomic<int> most{0};
        std::vector<rt::JoinHandle<void>> jobs;
        for (int i = 0; i < 10; ++i) {
          jobs.push_back(runtime.spawn_blocking([&] {
            int now = ++running;
            for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
            }
            release.wait();
            --running;
          }));
        }
        // spawn decided where each job goes before it returned.
        CHECK(runtime.metrics().num_blocking_threads() == 2);
        REQUIRE(ch11::eventually([&] { return running.load() == 2; }));
        CHECK(runtime.metrics().blocking_queue_depth() == 8);
        release.set();
        runtime.block_on(join_all(jobs));
        CHECK(most.load() == 2);
        CHECK(runtime.metrics().num_blocking_threads() == 2);
      },
      {.max_blocking = 2});
}

TEST_CASE("an idle blocking thread is woken for the next job: no second thread starts" * POINTS(2)) {
  ch11::on_each_flavour([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> { co_await rt::spawn_blocking([] {}); }());
    // The job's thread goes idle just after the job has ended.
    REQUIRE(ch11::eventually([&] { return runtime.metrics().num_idle_blocking_threads() == 1; }));
    ch11::Flag release;
    rt::JoinHandle<int> second = runtime.spawn_blocking([&] {
      release.wait();  // busy, so that it cannot be idle again yet
      return 4;
    });
    CHECK(runtime.metrics().num_blocking_threads() == 1);
    CHECK(runtime.metrics().num_idle_blocking_threads() == 0);
    release.set();
    CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await second; }()) == 4);
  });
}

TEST_CASE("jobs that wait for a thread run in the order they were spawned" * POINTS(2)) {
  ch11::on_each_flavour(
      [](rt::Runtime& runtime) {
        ch11::Flag started;
        ch11::Flag release;
        std::mutex mutex;
        std::vector<int> order;
        std::vector<rt::JoinHandle<void>> jobs;
        jobs.push_back(runtime.spawn_blocking([&] {
          started.set();
          release.wait();
        }));
        started.wait();
        for (int i = 1; i <= 8; ++i) {
          jobs.push_back(runtime.spawn_blocking([&, i] {
            std::lock_guard lock(mutex);
            order.push_back(i);
          }));
        }
        release.set();
        runtime.block_on(join_all(jobs));
        CHECK(order == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
      },
      {.max_blocking = 1});
}

TEST_CASE("an idle blocking thread leaves after the keep-alive" * POINTS(2)) {
  ch11::on_each_flavour(
      [](rt::Runtime& runtime) {
        runtime.block_on([]() -> rt::Task<> { co_await rt::spawn_blocking([] {}); }());
        // Polled: the keep-alive runs on the pool's own clock.
        CHECK(ch11::eventually([&] { return runtime.metrics().num_blocking_threads() == 0; }));
        CHECK(runtime.metrics().num_idle_blocking_threads() == 0);
        // A job after that starts a thread again.
        int value = runtime.block_on([]() -> rt::Task<int> { co_return co_await rt::spawn_blocking([] { return 3; }); }());
        CHECK(value == 3);
      },
      {.keep_alive = 20ms});
}
