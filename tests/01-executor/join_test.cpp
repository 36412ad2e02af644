// Chapter 01: block_on returns what its future returns; exceptions reach
// whoever joins; a runtime destroys the tasks that never finished.
#include <stdexcept>
#include <string>

#include "gate.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> forty_two() { co_return 42; }

rt::Task<int> leave_a_task_waiting(Gate& gate) {
  auto handle = rt::spawn([&gate]() -> rt::Task<> { co_await gate.wait(); });
  co_await rt::yield_now();  // the other task starts and waits forever
  co_return co_await forty_two();
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
  int& destroyed;
  ~Tracked() { ++destroyed; }
};

rt::Task<> hold_until_destroyed(Gate& gate, int& destroyed) {
  Tracked tracked{destroyed};
  co_await gate.wait();
}

}  // namespace

TEST_CASE("block_on returns once its future is done" * POINTS(2)) {
  rt::Runtime runtime;
  CHECK(runtime.block_on(forty_two()) == 42);
  Gate gate;
  CHECK(runtime.block_on(leave_a_task_waiting(gate)) == 42);
  CHECK(gate.polls() == 1);
}

TEST_CASE("an exception in a task reaches whoever joins it" * POINTS(2)) {
  rt::Runtime runtime;
  std::string message = runtime.block_on(join_failed_task());
  CHECK(message.find("boom") != std::string::npos);
  CHECK(runtime.block_on(forty_two()) == 42);  // the runtime is still usable
}

TEST_CASE("block_on rethrows its future's exception" * POINTS(1)) {
  rt::Runtime runtime;
  CHECK_THROWS_WITH_AS(runtime.block_on(fail()), "boom", std::runtime_error);
}

TEST_CASE("destroying the runtime destroys the tasks that never finished" * POINTS(2)) {
  int destroyed = 0;
  Gate gate;
  {
    rt::Runtime runtime;
    runtime.block_on([&]() -> rt::Task<> {
      auto handle = rt::spawn(hold_until_destroyed(gate, destroyed));
      co_await rt::yield_now();
    }());
    CHECK(gate.polls() == 1);
    CHECK(destroyed == 0);
  }
  CHECK(destroyed == 1);
}
