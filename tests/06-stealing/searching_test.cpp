// Chapter 06: the searching workers: at most about half the workers
// search at once, and the last searcher to find work, or to give up, says
// so, so that somebody takes up the search or looks once more.
#include <memory>
#include <thread>

#include "graded.hpp"
#include "interrupter.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"

using rt::detail::Idle;

TEST_CASE("fewer than half the workers may start searching" * POINTS(2)) {
  Idle four(4);
  CHECK(four.transition_worker_to_searching());
  CHECK(four.transition_worker_to_searching());
  CHECK_FALSE(four.transition_worker_to_searching());  // 2 of 4 search already
  CHECK(four.num_searching() == 2);
  Idle three(3);
  CHECK(three.transition_worker_to_searching());
  CHECK(three.transition_worker_to_searching());
  CHECK_FALSE(three.transition_worker_to_searching());
  Idle one(1);
  CHECK(one.transition_worker_to_searching());  // a lone worker may search
  CHECK_FALSE(one.transition_worker_to_searching());
}

TEST_CASE("the last searcher to find work or to park is told it was the last" * POINTS(2)) {
  Idle idle(4);
  REQUIRE(idle.transition_worker_to_searching());
  REQUIRE(idle.transition_worker_to_searching());
  CHECK_FALSE(idle.transition_worker_from_searching());  // one still searches
  CHECK(idle.transition_worker_from_searching());        // nobody does now
  CHECK(idle.num_searching() == 0);
  REQUIRE(idle.transition_worker_to_searching());
  REQUIRE(idle.transition_worker_to_searching());
  CHECK_FALSE(idle.transition_worker_to_parked(0, true));
  CHECK_FALSE(idle.transition_worker_to_parked(1, false));  // was not searching
  CHECK(idle.transition_worker_to_parked(2, true));
  CHECK(idle.num_sleeping() == 3);
}

TEST_CASE("new work wakes a sleeper only when nobody searches" * POINTS(1)) {
  Idle idle(2);
  CHECK_FALSE(idle.worker_to_notify().has_value());  // nobody sleeps
  idle.transition_worker_to_parked(0, false);
  REQUIRE(idle.transition_worker_to_searching());
  CHECK_FALSE(idle.worker_to_notify().has_value());  // the searcher will find it
  CHECK(idle.transition_worker_from_searching());
  CHECK(idle.worker_to_notify() == std::optional<std::size_t>(0));
  CHECK(idle.num_searching() == 1);  // woken to search
  CHECK_FALSE(idle.is_parked(0));
}

TEST_CASE("a runtime whose workers all sleep runs a task spawned from outside and sleeps again" * POINTS(1)) {
  rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(4).build();
  for (int round = 0; round < 20; ++round) {
    // Every worker listed asleep, and nobody searching.
    rt_test::wait_until_idle(runtime.metrics(), 4);
    CHECK(runtime.metrics().num_searching_workers() == 0);
    auto handle = runtime.handle().spawn([]() -> rt::Task<int> { co_return 42; }());
    CHECK(runtime.block_on([&]() -> rt::Task<int> { co_return co_await handle; }()) == 42);
  }
}

// The count of searchers changes on several workers at once: each change
// must be one read-modify-write of the word. The Interrupter runs one
// change in the middle of the other, on this thread, at every instruction.
constexpr long searching_interruptions = 1000;

TEST_CASE("two searchers leaving at once leave nobody counted and exactly one is told it was the last" * POINTS(1)) {
  std::unique_ptr<Idle> idle;
  bool theirs_last = false;
  Interrupter interrupter([&] { theirs_last = idle->transition_worker_from_searching(); }, searching_interruptions);
  long wrong = 0;
  while (interrupter.more()) {
    idle = std::make_unique<Idle>(4);
    idle->transition_worker_to_searching();
    idle->transition_worker_to_searching();
    bool mine_last = false;
    // (The Idle's first cache line, its count's, evicted: see Interrupter.)
    interrupter.run([&] { mine_last = idle->transition_worker_from_searching(); }, idle.get());
    if (idle->num_searching() != 0 || mine_last == theirs_last) ++wrong;
  }
  CHECK(interrupter.complete());
  CHECK_MESSAGE(wrong == 0, "two searchers left at the same moment and the count of searchers lost one of the changes");
}

TEST_CASE("a worker starting to search while another stops leaves exactly one counted" * POINTS(1)) {
  std::unique_ptr<Idle> idle;
  Interrupter interrupter([&] { (void)idle->transition_worker_from_searching(); }, searching_interruptions);
  long wrong = 0;
  while (interrupter.more()) {
    idle = std::make_unique<Idle>(4);
    idle->transition_worker_to_searching();
    bool joined = false;
    interrupter.run([&] { joined = idle->transition_worker_to_searching(); }, idle.get());
    if (!joined || idle->num_searching() != 1) ++wrong;
  }
  CHECK(interrupter.complete());
  CHECK_MESSAGE(wrong == 0, "a worker joined the searchers while another left and the count lost one of the changes");
}
