// Chapter 06, under the model checker: a ring of 4 (the very code of the
// runtime's ring of 256), its owner pushing and popping while other
// workers steal. Mirrors Tokio's own loom tests of its queue
// (runtime/tests/loom_queue.rs: basic, steal_overflow, multi_stealer,
// chained_steal). Each body runs under every schedule within the bound,
// and each atomic load may read any store the memory model allows. What
// each checks: every task pushed comes out exactly once (popped, stolen,
// or moved to the global queue), and, through the slots' UnsafeCells, no
// slot is read or written by two threads that no acquire and release
// order: a stealer reading a slot before the task is in it, or the owner
// overwriting a slot a stealer is still copying, is a data race the
// checker reports.
#include <cstdint>
#include <vector>

#include "fake_tasks.hpp"
#include "model.hpp"
#include "rt/rt.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/queue.hpp"
#include "task_tally.hpp"

namespace {

using rt::detail::Header;
using rt::detail::Inject;
using rt::detail::LocalQueue;

using Ring = LocalQueue<4>;

// A stealer's turn: steal from `victim` into its own ring, keep the task
// it hands back, then pop the rest of what it stole.
void steal_and_run(Ring& victim, Ring& own, std::vector<Header*>& taken, std::uint32_t* count = nullptr) {
  std::uint32_t stolen = 0;
  if (Header* task = victim.steal_into(own, stolen)) taken.push_back(task);
  if (count) *count = stolen;
  while (Header* task = own.pop()) taken.push_back(task);
}

}  // namespace

TEST_CASE("model: an owner pushing and popping while another worker steals twice loses no task and runs none twice" * POINTS(1)) {
  // Tokio's basic, smaller: the owner's pops race the steals' claims, and
  // its pushes the steals' reads of the slots.
  rt_test::explore([] {
    FakeTasks tasks(3);
    Inject inject;
    Ring ring;
    std::vector<Header*> stolen;
    model::thread stealer([&] {
      Ring own;
      for (int i = 0; i < 2; ++i) steal_and_run(ring, own, stolen);
    });
    std::vector<Header*> popped;
    ring.push_back_or_overflow(tasks[0], inject);
    ring.push_back_or_overflow(tasks[1], inject);
    if (Header* task = ring.pop()) popped.push_back(task);
    ring.push_back_or_overflow(tasks[2], inject);
    stealer.join();
    TaskTally tally(tasks);
    tally.add(popped);
    tally.add(stolen);
    tally.drain(ring);
    tally.drain(inject);
    tally.check_each_once();
  });
}

TEST_CASE("model: a ring that fills up and overflows while a worker steals from it loses no task and runs none twice" * POINTS(2)) {
  // Tokio's steal_overflow: the owner's pushes meet the ring full while a
  // steal is in progress (that task goes to the global queue alone), or
  // its overflow's claim races the stealer's.
  rt_test::explore([] {
    FakeTasks tasks(7);
    Inject inject;
    Ring ring;
    std::vector<Header*> stolen;
    model::thread stealer([&] {
      Ring own;
      steal_and_run(ring, own, stolen);
    });
    std::vector<Header*> popped;
    ring.push_back_or_overflow(tasks[0], inject);
    if (Header* task = ring.pop()) popped.push_back(task);
    for (std::size_t i = 1; i < 7; ++i) ring.push_back_or_overflow(tasks[i], inject);
    stealer.join();
    TaskTally tally(tasks);
    tally.add(popped);
    tally.add(stolen);
    tally.drain(ring);
    tally.drain(inject);
    tally.check_each_once();
  });
}

TEST_CASE("model: two workers stealing from one ring as its owner pops each take at most half and no task twice" * POINTS(2)) {
  // Tokio's multi_stealer: a steal in progress keeps the other stealer
  // out, and the owner's pops and the steals never claim the same task.
  rt_test::explore([] {
    FakeTasks tasks(4);
    Inject inject;
    Ring ring;
    for (std::size_t i = 0; i < 4; ++i) ring.push_back_or_overflow(tasks[i], inject);
    std::vector<Header*> first_taken, second_taken;
    std::uint32_t first_stole = 0, second_stole = 0;  // how many each steal took
    model::thread first([&] {
      Ring own;
      steal_and_run(ring, own, first_taken, &first_stole);
    });
    model::thread second([&] {
      Ring own;
      steal_and_run(ring, own, second_taken, &second_stole);
    });
    std::vector<Header*> popped;
    if (Header* task = ring.pop()) popped.push_back(task);
    first.join();
    second.join();
    model::check(first_stole <= 2 && second_stole <= 2, "a steal took more than half of the ring's 4 tasks (half, rounded up, at most)");
    TaskTally tally(tasks);
    tally.add(popped);
    tally.add(first_taken);
    tally.add(second_taken);
    tally.drain(ring);
    tally.drain(inject);
    tally.check_each_once();
  });
}

TEST_CASE("model: a worker stealing into its own ring while a third worker steals from that ring loses no task" * POINTS(1)) {
  // Tokio's chained_steal: the tasks a steal copies into the thief's ring
  // are that ring's own to publish; its stealers must not see them early.
  rt_test::explore([] {
    FakeTasks tasks(8);
    Inject inject;
    Ring first, second;
    for (std::size_t i = 0; i < 4; ++i) {
      first.push_back_or_overflow(tasks[i], inject);
      second.push_back_or_overflow(tasks[4 + i], inject);
    }
    std::vector<Header*> third_taken;
    model::thread third([&] {
      Ring own;
      steal_and_run(first, own, third_taken);
    });
    std::vector<Header*> taken;
    while (Header* task = first.pop()) taken.push_back(task);
    std::uint32_t stolen = 0;
    if (Header* task = second.steal_into(first, stolen)) taken.push_back(task);
    third.join();
    TaskTally tally(tasks);
    tally.add(taken);
    tally.add(third_taken);
    tally.drain(first);
    tally.drain(second);
    tally.drain(inject);
    tally.check_each_once();
  });
}
