// Chapter 01: yield_now sends a task to the back of the run queue.
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<> take_turns(std::string& log, char name, int turns) {
  for (int i = 0; i < turns; ++i) {
    log += name;
    co_await rt::yield_now();
  }
}

rt::Task<> two_tasks(std::string& log) {
  auto a = rt::spawn(take_turns(log, 'A', 4));
  auto b = rt::spawn(take_turns(log, 'B', 4));
  co_await a;
  co_await b;
}

rt::Task<int> yield_then_return(int value) {
  co_await rt::yield_now();
  co_await rt::yield_now();
  co_return value;
}

}  // namespace

TEST_CASE("yield_now interleaves two tasks fairly" * POINTS(2)) {
  // One thread runs every task, in queue order: only a current-thread
  // runtime promises this interleaving (on several workers the two run
  // side by side).
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    std::string log;
    runtime.block_on(two_tasks(log));
    CHECK(log == "ABABABAB");
  });
}

TEST_CASE("block_on's own future can yield" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    CHECK(runtime.block_on(yield_then_return(7)) == 7);
  });
}
