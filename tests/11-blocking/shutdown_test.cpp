// Chapter 11: shutting down with blocking jobs. Dropping a runtime waits
// for the jobs that are running; shutdown_timeout waits at most that
// long, and shutdown_background not at all: a job still running then
// finishes on its own thread.
#include <atomic>
#include <future>
#include <memory>
#include <thread>

#include "blocking.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

using namespace std::chrono_literals;

namespace {

// A runtime of each flavour, one after the other, made by `make`.
template <class Body>
void on_each_flavour_owned(Body body) {
  {
    INFO("on the current-thread runtime");
    body([] { return ch11::current_thread(); });
  }
  {
    INFO("on a multi-thread runtime with 2 workers");
    body([] { return ch11::multi_thread(2); });
  }
}

}  // namespace

TEST_CASE("dropping a runtime waits for the blocking job still running" * POINTS(2)) {
  on_each_flavour_owned([](auto make) {
    auto runtime = std::make_unique<rt::Runtime>(make());
    ch11::Flag started;
    ch11::Flag release;
    std::atomic<bool> finished{false};
    (void)runtime->spawn_blocking([&] {
      started.set();
      release.wait();
      finished = true;
    });
    started.wait();
    std::promise<bool> dropped;
    std::future<bool> finished_when_dropped = dropped.get_future();
    std::thread dropper([&] {
      runtime.reset();
      dropped.set_value(finished.load());
    });
    // The drop cannot end while the job runs: a drop that ends within
    // this bound (on a fast machine, within microseconds) did not wait.
    bool ended_while_running = finished_when_dropped.wait_for(200ms) == std::future_status::ready;
    release.set();
    dropper.join();
    CHECK_FALSE(ended_while_running);
    CHECK(finished_when_dropped.get());
  });
}

TEST_CASE("shutdown_timeout stops waiting for a job that runs past it" * POINTS(2)) {
  on_each_flavour_owned([](auto make) {
    rt::Runtime runtime = make();
    ch11::Flag started;
    ch11::Flag release;
    ch11::Flag finished;
    (void)runtime.spawn_blocking([&] {
      started.set();
      release.wait();
      finished.set();
    });
    started.wait();
    runtime.shutdown_timeout(20ms);  // returns, though the job runs on
    release.set();
    finished.wait();  // on its own thread, which nobody waits for
    CHECK(finished.is_set());
  });
}

TEST_CASE("shutdown_background does not wait for the blocking jobs at all" * POINTS(1)) {
  on_each_flavour_owned([](auto make) {
    rt::Runtime runtime = make();
    ch11::Flag started;
    ch11::Flag release;
    ch11::Flag finished;
    (void)runtime.spawn_blocking([&] {
      started.set();
      release.wait();
      finished.set();
    });
    started.wait();
    runtime.shutdown_background();
    release.set();
    finished.wait();
    CHECK(finished.is_set());
  });
}

TEST_CASE("shutdown with idle blocking threads ends them all and leaves none behind" * POINTS(1)) {
  on_each_flavour_owned([](auto make) {
    std::atomic<int> ran{0};
    {
      rt::Runtime runtime = make();
      runtime.block_on([&]() -> rt::Task<> {
        for (int i = 0; i < 4; ++i) co_await rt::spawn_blocking([&] { ++ran; });
      }());
      CHECK(runtime.metrics().num_blocking_threads() >= 1);
    }
    CHECK(ran.load() == 4);
  });
}
