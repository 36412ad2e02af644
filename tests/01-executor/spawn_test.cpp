// Chapter 01: spawn runs tasks to completion, in the order they were queued.
#include <atomic>
#include <string>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> double_it(int value, std::atomic<int>& runs) {
  ++runs;
  co_return value * 2;
}

rt::Task<int> spawn_and_sum(int count, std::atomic<int>& runs) {
  std::vector<rt::JoinHandle<int>> handles;
  for (int i = 0; i < count; ++i) handles.push_back(rt::spawn(double_it(i, runs)));
  int sum = 0;
  for (auto& handle : handles) sum += co_await handle;
  co_return sum;
}

rt::Task<> record(std::vector<int>& order, int id) {
  order.push_back(id);
  co_return;
}

rt::Task<> spawn_in_order(std::vector<int>& order) {
  std::vector<rt::JoinHandle<void>> handles;
  for (int id = 0; id < 10; ++id) handles.push_back(rt::spawn(record(order, id)));
  for (auto& handle : handles) co_await handle;
}

}  // namespace

TEST_CASE("spawned tasks run to completion" * POINTS(2)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    std::atomic<int> runs{0};  // tasks may run on several threads at once
    int sum = runtime.block_on(spawn_and_sum(100, runs));
    CHECK(runs == 100);
    CHECK(sum == 2 * (99 * 100 / 2));
  });
}

TEST_CASE("spawned tasks run in the order they were spawned" * POINTS(2)) {
  // Spawn order is run order only with one thread running every task, as
  // on a current-thread runtime; workers run them side by side.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    std::vector<int> order;
    runtime.block_on(spawn_in_order(order));
    CHECK(order == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  });
}

TEST_CASE("a spawned lambda keeps its captures alive" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    auto result = runtime.block_on([]() -> rt::Task<std::string> {
      std::string greeting = "hello";
      auto handle = rt::spawn([greeting]() -> rt::Task<std::string> {
        co_await rt::yield_now();  // the captures must outlive this suspension
        co_return greeting + ", world";
      });
      co_return co_await handle;
    }());
    CHECK(result == "hello, world");
  });
}
