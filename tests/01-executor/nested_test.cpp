// Chapter 01: awaiting a Task runs it inline, in the same task.
#include <string>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "small_tasks.hpp"

namespace {

rt::Task<> inner(std::string& log) {
  log += "inner ";
  co_return;
}

rt::Task<> middle(std::string& log) {
  log += "middle ";
  co_await inner(log);
  log += "middle-again ";
}

rt::Task<> outer(std::string& log) {
  auto other = rt::spawn([&log]() -> rt::Task<> {
    log += "other-task ";
    co_return;
  });
  co_await middle(log);  // runs to the end before the other task gets a turn
  log += "outer ";
  co_await other;
}

}  // namespace

TEST_CASE("nested coroutines are awaited inline and make no new task" * POINTS(2)) {
  // The log shows that the other task waits for its turn: with one thread
  // running every task, in queue order, as only a current-thread runtime
  // promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    std::string log;
    runtime.block_on(outer(log));
    CHECK(log == "middle inner middle-again outer other-task ");
  });
}

TEST_CASE("a deep chain of awaited coroutines returns through every level" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    CHECK(runtime.block_on(rt_test::depth(1000)) == 1000);
  });
}
