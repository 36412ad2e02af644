// Chapter 08: a task whose resources are always ready no longer keeps its
// thread to itself; the slot's tasks share the budget of the task that
// woke them; a unit spent on an operation that ends up pending comes back.
#include <atomic>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "consume.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

// Units the calling task can still spend before it yields (it then yields).
rt::Task<std::size_t> units_left() {
  std::size_t spent = 0;
  while (rt::coop::has_budget_remaining()) {
    co_await rt::coop::consume_budget();
    ++spent;
  }
  co_return spent;
}

rt::Runtime one_worker() { return rt::Builder::new_multi_thread().worker_threads(1).build(); }

}  // namespace

TEST_CASE("a task looping on an always ready channel lets another task run on either flavour" * POINTS(2)) {
  auto body = [](rt::Runtime& runtime) {
    std::atomic<bool> stop{false};
    std::atomic<long> round_trips{0};
    std::atomic<long> seen{-1};
    runtime.block_on([&]() -> rt::Task<> {
      auto busy = rt::spawn([&]() -> rt::Task<> {
        // Queued by this task's own thread before the loop starts: on a
        // worker, nothing else decides when it is queued.
        auto other = rt::spawn([&]() -> rt::Task<> {
          seen = round_trips.load();
          stop = true;
          co_return;
        });
        auto [tx, rx] = rt::mpsc::channel<int>(1);
        // Its own channel: every send and every receive is ready at once.
        while (!stop.load()) {
          co_await tx.send(1);
          co_await rx.recv();
          round_trips.fetch_add(1);
        }
        co_await other;
      });
      co_await busy;
    }());
    CHECK(seen.load() == 64);  // 128 units, two per round trip
  };
  rt_test::on_current_thread(body);
  INFO("on a multi-thread runtime with 1 worker");
  rt::Runtime runtime = one_worker();
  body(runtime);
}

TEST_CASE("the tasks run from the slot spend the budget of the task that woke them" * POINTS(2)) {
  std::atomic<std::size_t> left{0};
  rt::Notify measured;  // before the runtime: they outlive its tasks
  rt::Runtime runtime = one_worker();
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      co_await rt_test::consume(100);
      // Into the slot: it runs right after this poll, on what is left.
      (void)rt::spawn([&]() -> rt::Task<> {
        left = co_await units_left();
        measured.notify_one();
      });
      co_return;
    });
    co_await measured.notified();
  }());
  CHECK(left.load() == 28);
}

TEST_CASE("a task in the slot when the budget is spent waits its turn in the ring" * POINTS(1)) {
  rt::Runtime runtime = one_worker();
  std::atomic<std::size_t> progress{0};
  std::atomic<std::size_t> seen{0};
  std::atomic<bool> had_budget{false};
  runtime.block_on([&]() -> rt::Task<> {
    auto parent = rt::spawn([&]() -> rt::Task<> {
      auto late = rt::spawn([&]() -> rt::Task<> {  // into the slot
        seen = progress.load();
        had_budget = rt::coop::has_budget_remaining();
        co_return;
      });
      for (int i = 0; i < 200; ++i) {  // yields after 128
        co_await rt::coop::consume_budget();
        progress.fetch_add(1);
      }
      co_await late;
    });
    co_await parent;
  }());
  // The parent yielded with nothing left for the slot: the task there went
  // to the ring and ran from there, on a budget of its own, before the
  // parent, which yielded, ran again.
  CHECK(had_budget.load());
  CHECK(seen.load() == 128);
}

TEST_CASE("a unit spent on an operation that ends up pending is given back" * POINTS(2)) {
  std::atomic<std::size_t> left{0};
  auto [tx, rx] = rt::mpsc::channel<int>(1);
  rt::Notify measured;  // before the runtime: they outlive its tasks
  rt::Runtime runtime = one_worker();
  runtime.block_on([&, &tx = tx, &rx = rx]() -> rt::Task<> {
    auto waiting = rt::spawn([&]() -> rt::Task<> {
      co_await rt_test::consume(100);
      (void)rt::spawn([&]() -> rt::Task<> {
        left = co_await units_left();
        measured.notify_one();
      });
      co_await rx.recv();  // empty: pending, and its unit comes back
    });
    co_await measured.notified();
    REQUIRE(tx.try_send(1).ok());
    co_await waiting;
  }());
  CHECK(left.load() == 28);
}

TEST_CASE("a refused operation leaves the budget spent so the task in the slot waits behind the ring" * POINTS(2)) {
  rt::Runtime runtime = one_worker();
  std::vector<char> order;  // one worker: these tasks run on one thread, one at a time
  runtime.block_on([&]() -> rt::Task<> {
    co_await rt::spawn([&]() -> rt::Task<> {
      auto in_ring = rt::spawn([&]() -> rt::Task<> {  // into the slot, then pushed out to the ring
        order.push_back('r');
        co_return;
      });
      auto in_slot = rt::spawn([&]() -> rt::Task<> {
        order.push_back('s');
        co_return;
      });
      co_await rt_test::consume(129);  // the 129th is refused: this task yields
      co_await in_ring;
      co_await in_slot;
    });
  }());
  CHECK_MESSAGE((order == std::vector<char>{'r', 's'}),
                "after a refusal the task in the slot ran at once: the refusal gave the poll a budget again");
}

TEST_CASE("a task that yielded runs within the maintenance interval on a worker that never runs dry" * POINTS(1)) {
  // Two tasks hand one value back and forth for up to `rounds` round
  // trips: one of them is always ready, so the one worker never runs dry.
  // At round 10 a third task starts, yields once and notes the round.
  constexpr long rounds = 20000;
  rt::Runtime runtime = one_worker();
  std::atomic<long> round{0};
  std::atomic<long> yielder_done_at{-1};
  runtime.block_on([&]() -> rt::Task<> {
    auto [to_echo, echo_in] = rt::mpsc::channel<long>(1);
    auto [echo_out, back] = rt::mpsc::channel<long>(1);
    auto echo = rt::spawn([&, in = std::move(echo_in), out = std::move(echo_out)]() mutable -> rt::Task<> {
      while (std::optional<long> value = co_await in.recv()) co_await out.send(*value);
    });
    auto driver = rt::spawn([&, out = std::move(to_echo), in = std::move(back)]() mutable -> rt::Task<> {
      std::optional<rt::JoinHandle<void>> yielder;
      for (; round.load() < rounds && yielder_done_at.load() < 0; round.fetch_add(1)) {
        if (round.load() == 10) {
          yielder = rt::spawn([&]() -> rt::Task<> {
            co_await rt::yield_now();
            yielder_done_at = round.load();
          });
        }
        co_await out.send(round.load());
        co_await in.recv();
      }
      { auto closing = std::move(out); }  // closes the echo's channel: it ends
      if (yielder) co_await *yielder;
    });
    co_await driver;
    co_await echo;
  }());
  // Maintenance runs every 61 ticks; each tick polls at most four tasks.
  CHECK_MESSAGE(yielder_done_at.load() - 10 < 1000,
                "a task that yielded waited until its worker had nothing else to run: maintenance never woke it");
}
