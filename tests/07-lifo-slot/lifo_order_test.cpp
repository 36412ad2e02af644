// Chapter 07: a task woken or spawned on a worker runs next, from the LIFO
// slot; what it displaces goes to the back of the ring; a task that yields
// never takes the slot; at most three in a row come from the slot; the
// builder can turn it off.
#include <string>
#include <vector>

#include "gate.hpp"
#include "graded.hpp"
#include "order.hpp"
#include "rt/rt.hpp"

using ch07::Order;
using ch07::record;
using Handles = std::vector<rt::JoinHandle<void>>;
using Strings = std::vector<std::string>;

namespace {

rt::Task<Handles> spawn_z_then_y(Order& order) {
  Handles spawned;
  spawned.push_back(rt::spawn(record(order, "Z")));
  spawned.push_back(rt::spawn(record(order, "Y")));  // takes the slot from Z
  co_return spawned;
}

// Two tasks wait on gates; a task on the worker opens A's, then B's.
Strings wake_a_then_b(bool lifo) {
  rt::Runtime runtime = ch07::one_worker(lifo);
  Order order;
  Gate a, b;
  auto waiting_a = runtime.handle().spawn([&]() -> rt::Task<> {
    co_await a.wait();
    order.add("A");
  });
  auto waiting_b = runtime.handle().spawn([&]() -> rt::Task<> {
    co_await b.wait();
    order.add("B");
  });
  a.wait_until_polled();
  b.wait_until_polled();
  ch07::run_parent(runtime, [&]() -> rt::Task<Handles> {
    a.open();  // both wakes come from the worker's own thread
    b.open();
    co_return Handles{};
  }());
  runtime.block_on([&]() -> rt::Task<> {
    co_await waiting_a;
    co_await waiting_b;
  }());
  return order.seen();
}

}  // namespace

TEST_CASE("a task spawned or woken on a worker runs next and the one it displaces waits in the ring" * POINTS(2)) {
  {
    rt::Runtime runtime = ch07::one_worker();
    Order order;
    ch07::run_parent(runtime, spawn_z_then_y(order));
    CHECK(order.seen() == Strings{"Y", "Z"});
  }
  CHECK(wake_a_then_b(true) == Strings{"B", "A"});
}

TEST_CASE("disable_lifo_slot keeps a worker's tasks first in first out" * POINTS(1)) {
  {
    rt::Runtime runtime = ch07::one_worker(false);
    Order order;
    ch07::run_parent(runtime, spawn_z_then_y(order));
    CHECK(order.seen() == Strings{"Z", "Y"});
  }
  CHECK(wake_a_then_b(false) == Strings{"A", "B"});
}

namespace {

rt::Task<> yielder(Order& order) {
  order.add("Y1");
  co_await rt::yield_now();
  order.add("Y2");
}

rt::Task<Handles> spawn_z_then_yielder(Order& order) {
  Handles spawned;
  spawned.push_back(rt::spawn(record(order, "Z")));
  spawned.push_back(rt::spawn(yielder(order)));
  co_return spawned;
}

}  // namespace

TEST_CASE("a task that yields goes to the back of the ring and never into the slot" * POINTS(2)) {
  rt::Runtime runtime = ch07::one_worker();
  Order order;
  ch07::run_parent(runtime, spawn_z_then_yielder(order));
  CHECK(order.seen() == Strings{"Y1", "Z", "Y2"});
}

namespace {

// H1 spawns H2, which spawns H3, ... up to H6.
rt::Task<> chain(Order& order, int k) {
  order.add("H" + std::to_string(k));
  if (k < 6) (void)rt::spawn(chain(order, k + 1));  // detached: it runs before the parent's handles are awaited
  co_return;
}

rt::Task<> spawns_two(Order& order) {
  order.add("X");
  (void)rt::spawn(record(order, "P1"));
  (void)rt::spawn(record(order, "P2"));  // takes the slot from P1
  co_return;
}

}  // namespace

TEST_CASE("at most three tasks in a row run from the slot and then the slot is on again" * POINTS(2)) {
  Order order;  // before the runtime: it outlives the tasks spawned detached
  rt::Runtime runtime = ch07::one_worker();
  ch07::run_parent(runtime, [&]() -> rt::Task<Handles> {
    Handles spawned;
    spawned.push_back(rt::spawn(spawns_two(order)));
    spawned.push_back(rt::spawn(chain(order, 1)));  // takes the slot from X
    co_return spawned;
  }());
  order.wait_for(9);  // what was spawned detached has run
  // H1, H2, H3 from the slot; H3's child goes to the ring, behind X. X's
  // P2 takes the slot again; H4's chain starts over.
  CHECK(order.seen() == Strings{"H1", "H2", "H3", "X", "P2", "H4", "H5", "H6", "P1"});
}
