// Chapter 08: the budget of 128 units per task poll. Every runtime
// resource spends one when it is ready; once the budget is gone, the next
// one says "not ready" and the task yields. (Experiment E5.)
#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "consume.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "race.hpp"
#include "rt/rt.hpp"

using ch08::current_thread;
using ch08::progress_when_the_other_ran;

namespace {

// Tokio's E5 uses 10,000 (experiments/08-coop does too); 1,000 says the
// same, and keeps the deepest chain of awaits small enough for the stack
// of a build with AddressSanitizer, which keeps symmetric transfer from
// being a jump.
constexpr std::size_t total = 1000;

rt::Task<int> ready_value() { co_return 1; }

}  // namespace

TEST_CASE("a task yields after 128 ready receives sends locks notifications and joins" * POINTS(2)) {
  {
    INFO("mpsc receive");
    rt::Runtime runtime = current_thread();
    auto [tx, rx] = rt::mpsc::channel<int>(total);
    for (std::size_t i = 0; i < total; ++i) REQUIRE(tx.try_send(1).ok());
    CHECK(progress_when_the_other_ran(runtime, total, [&rx = rx](std::size_t) -> rt::Task<> {
      co_await rx.recv();
    }) == 128);
  }
  {
    INFO("mpsc send");
    rt::Runtime runtime = current_thread();
    auto [tx, rx] = rt::mpsc::channel<int>(total);
    CHECK(progress_when_the_other_ran(runtime, total, [&tx = tx](std::size_t) -> rt::Task<> {
      co_await tx.send(1);
    }) == 128);
  }
  {
    INFO("oneshot receive");
    rt::Runtime runtime = current_thread();
    std::vector<rt::oneshot::Receiver<int>> receivers;
    for (std::size_t i = 0; i < total; ++i) {
      auto [tx, rx] = rt::oneshot::channel<int>();
      REQUIRE_FALSE(tx.send(1).has_value());  // sent: nothing comes back
      receivers.push_back(std::move(rx));
    }
    CHECK(progress_when_the_other_ran(runtime, total, [&](std::size_t i) -> rt::Task<> {
      co_await receivers[i];
    }) == 128);
  }
  {
    INFO("Mutex lock");
    rt::Runtime runtime = current_thread();
    rt::Mutex<int> mutex;
    CHECK(progress_when_the_other_ran(runtime, total, [&](std::size_t) -> rt::Task<> {
      auto guard = co_await mutex.lock();
      *guard += 1;
    }) == 128);
  }
  {
    INFO("Notify with a stored permit");
    rt::Runtime runtime = current_thread();
    rt::Notify notify;
    CHECK(progress_when_the_other_ran(runtime, total, [&](std::size_t) -> rt::Task<> {
      notify.notify_one();  // stores a permit: the next wait is ready at once
      co_await notify.notified();
    }) == 128);
  }
  {
    INFO("JoinHandle of a finished task");
    rt::Runtime runtime = current_thread();
    std::vector<rt::JoinHandle<int>> handles;
    runtime.block_on([&]() -> rt::Task<> {
      for (std::size_t i = 0; i < 300; ++i) handles.push_back(rt::spawn(ready_value()));
      co_await rt::yield_now();  // behind them all: they have finished when this resumes
    }());
    CHECK(progress_when_the_other_ran(runtime, handles.size(), [&](std::size_t i) -> rt::Task<> {
      co_await handles[i];
    }) == 128);
  }
}

TEST_CASE("consume_budget spends a unit and yield_now yields at once while a plain value spends nothing" * POINTS(2)) {
  {
    rt::Runtime runtime = current_thread();
    CHECK(progress_when_the_other_ran(runtime, total, [](std::size_t) -> rt::Task<> {
      co_await rt::coop::consume_budget();
    }) == 128);
  }
  {
    rt::Runtime runtime = current_thread();
    CHECK(progress_when_the_other_ran(runtime, total, [](std::size_t) -> rt::Task<> {
      co_await rt::yield_now();
    }) == 0);
  }
  {
    rt::Runtime runtime = current_thread();
    CHECK(progress_when_the_other_ran(runtime, total, [](std::size_t) -> rt::Task<> {
      co_await ready_value();
    }) == total);
  }
}

TEST_CASE("has_budget_remaining says when the budget is spent" * POINTS(1)) {
  CHECK(rt::coop::has_budget_remaining());  // outside any task: unconstrained
  rt::Runtime runtime = current_thread();
  std::vector<bool> seen;
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      seen.push_back(rt::coop::has_budget_remaining());
      co_await rt_test::consume(127);
      seen.push_back(rt::coop::has_budget_remaining());
      co_await rt_test::consume(1);
      seen.push_back(rt::coop::has_budget_remaining());
    });
  }());
  CHECK(seen == std::vector<bool>{true, true, false});
}

TEST_CASE("unconstrained runs a task without a budget" * POINTS(1)) {
  rt::Runtime runtime = current_thread();
  auto [tx, rx] = rt::mpsc::channel<int>(total);
  for (std::size_t i = 0; i < total; ++i) REQUIRE(tx.try_send(1).ok());
  std::atomic<std::size_t> received{0};
  std::atomic<std::size_t> seen{0};
  bool budget_inside = false;
  runtime.block_on([&, &rx = rx]() -> rt::Task<> {
    auto a = rt::spawn([&]() -> rt::Task<> {
      co_await rt::coop::unconstrained([&]() -> rt::Task<> {
        co_await rt_test::consume(200);
        budget_inside = rt::coop::has_budget_remaining();
        for (std::size_t i = 0; i < total; ++i) {
          co_await rx.recv();
          received.fetch_add(1);
        }
      }());
      // Outside it again, the budget applies.
      co_await rt_test::consume(200);
    });
    auto b = rt::spawn([&]() -> rt::Task<> {
      seen = received.load();
      co_return;
    });
    co_await a;
    co_await b;
  }());
  CHECK_MESSAGE(budget_inside, "has_budget_remaining() said the budget was spent inside unconstrained(...), "
                              "where no budget applies");
  CHECK_MESSAGE(seen.load() == total,
                "another task ran before the 1000 ready receives inside unconstrained(...) were done: "
                "unconstrained(...) refused an operation and the task yielded");
}

TEST_CASE("unconstrained neither spends nor refuses the budget even when entered with none left" * POINTS(2)) {
  rt::Runtime runtime = current_thread();
  std::vector<bool> seen;
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      co_await rt_test::consume(127);  // one unit left
      co_await rt::coop::unconstrained(rt_test::consume(1000));
      seen.push_back(rt::coop::has_budget_remaining());  // that one unit, still
      co_await rt_test::consume(1);
      seen.push_back(rt::coop::has_budget_remaining());  // none, and no yield since
      co_await rt::coop::unconstrained(rt_test::consume(10));  // entered with none left
      seen.push_back(rt::coop::has_budget_remaining());  // none still: it did not yield
    });
  }());
  REQUIRE(seen.size() == 3);
  CHECK_MESSAGE(seen[0], "1000 units spent inside unconstrained(...) came out of the task's budget");
  CHECK_MESSAGE(!seen[1], "after unconstrained(...) the task's budget was not the one it had before");
  CHECK_MESSAGE(!seen[2], "unconstrained(...) entered with no budget left refused an operation: the task yielded");
}

TEST_CASE("block_on's own future spends a budget of 128 as a task does on either flavour" * POINTS(1)) {
  auto body = [](rt::Runtime& runtime) {
    std::vector<bool> seen;
    runtime.block_on([&]() -> rt::Task<> {
      seen.push_back(rt::coop::has_budget_remaining());
      co_await rt_test::consume(128);
      seen.push_back(rt::coop::has_budget_remaining());
    }());
    CHECK_MESSAGE(seen == (std::vector<bool>{true, false}),
                  "block_on polled its own future without a budget: a root looping on a ready resource would never yield");
  };
  rt_test::on_each_runtime(body);
}
