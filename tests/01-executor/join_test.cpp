// Chapter 01: block_on returns what its future returns; exceptions reach
// whoever joins; a runtime destroys the tasks that never finished.
#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>

#include "answer.hpp"
#include "flavours.hpp"
#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> leave_a_task_waiting(Gate& gate) {
  auto handle = rt::spawn([&gate]() -> rt::Task<> { co_await gate.wait(); });
  while (gate.polls() == 0) co_await rt::yield_now();  // the other task starts and waits forever
  co_return co_await rt_test::answer();
}

rt::Task<int> fail() {
  throw std::runtime_error("boom");
  co_return 0;
}

rt::Task<std::string> join_failed_task() {
  auto handle = rt::spawn(fail());
  try {
    co_await handle;
  } catch (const rt::JoinError& error) {
    CHECK(error.is_panic());
    CHECK_THROWS_WITH_AS(std::rethrow_exception(error.original()), "boom", std::runtime_error);
    co_return error.what();
  }
  co_return "no error";
}

// Counts how many of these were destroyed.
struct Tracked {
  std::atomic<int>& destroyed;
  ~Tracked() { ++destroyed; }
};

rt::Task<> hold_until_destroyed(Gate& gate, std::atomic<int>& destroyed) {
  Tracked tracked{destroyed};
  co_await gate.wait();
}

}  // namespace

TEST_CASE("block_on returns once its future is done" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    CHECK(runtime.block_on(rt_test::answer()) == 42);
    Gate gate;
    CHECK(runtime.block_on(leave_a_task_waiting(gate)) == 42);
    CHECK(gate.polls() == 1);
  });
}

TEST_CASE("an exception in a task reaches whoever joins it" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    std::string message = runtime.block_on(join_failed_task());
    CHECK(message.find("boom") != std::string::npos);
    CHECK(runtime.block_on(rt_test::answer()) == 42);  // the runtime is still usable
  });
}

TEST_CASE("block_on rethrows its future's exception" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    CHECK_THROWS_WITH_AS(runtime.block_on(fail()), "boom", std::runtime_error);
  });
}

TEST_CASE("destroying the runtime destroys the tasks that never finished" * POINTS(2)) {
  std::atomic<int> destroyed{0};
  std::optional<Gate> gate;  // a fresh one for each runtime
  rt_test::on_each_runtime(
      [&](rt::Runtime& runtime) {
        destroyed = 0;
        gate.emplace();
        runtime.block_on([&]() -> rt::Task<> {
          auto handle = rt::spawn(hold_until_destroyed(*gate, destroyed));
          while (gate->polls() == 0) co_await rt::yield_now();
        }());
        CHECK(gate->polls() == 1);
        CHECK(destroyed == 0);
      },
      [&] {  // the runtime is gone
        CHECK(destroyed == 1);
        gate.reset();
      });
}
