// Chapter 05, under the model checker: a worker's ring of 4 (the very
// code of the runtime's ring of 256). Only its owner pushes and pops in
// this chapter, but two things are concurrent already: any thread may read
// the ring's length (RuntimeMetrics' worker_local_queue_depth), and the
// tasks an overflow moves to the global queue are taken from there by the
// other workers as they arrive. Each body runs under every schedule within
// the bound, and each atomic load may read any store the memory model
// allows, not only the newest.
#include <cstdint>
#include <limits>
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

}  // namespace

TEST_CASE("model: a length read by another thread while the owner pushes overflows and pops never counts fewer than zero tasks" * POINTS(3)) {
  // len() reads the head, then the tail: a snapshot, which may be old. But
  // a head it reads was moved past tasks that were in the ring, so the
  // tail it reads next must be at least that far: the owner moves the
  // head with a release, the reader acquires it, and the tail written
  // before comes with it. Without the release, the reader may pair the
  // new head with an older tail: a count below zero, which wraps to four
  // billion. The indices start near 2^32, so that they wrap meanwhile.
  rt_test::explore([] {
    FakeTasks tasks(5);
    Inject inject;
    LocalQueue<4> ring(std::numeric_limits<std::uint32_t>::max() - 2);
    std::uint32_t seen[2] = {0, 0};
    model::thread reader([&] {
      seen[0] = ring.len();
      seen[1] = ring.len();
    });
    for (std::size_t i = 0; i < 5; ++i) ring.push_back_or_overflow(tasks[i], inject);  // the fifth overflows
    ring.pop();
    ring.pop();
    reader.join();
    for (std::uint32_t len : seen) {
      model::check(static_cast<std::int32_t>(len) >= 0,
                   "another thread read the ring's length as a count below zero: it read a head that had "
                   "moved past the tail it read next (the head moved without a release ordering the tail "
                   "before it)");
    }
  });
}

TEST_CASE("model: the tasks an overflow moves to the global queue while another worker takes from it each come out once" * POINTS(2)) {
  // The global queue's other side: a worker taking from it (pop, and
  // pop_n as next_remote_batch does) while the owner's ring overflows
  // into it. Each task ends up in exactly one place: run by the other
  // worker, still in the global queue, or still in the ring.
  rt_test::explore([] {
    FakeTasks tasks(6);
    Inject inject;
    LocalQueue<4> ring;
    std::vector<Header*> taken;
    model::thread other([&] {
      if (Header* task = inject.pop()) taken.push_back(task);
      for (Header* task = inject.pop_n(2); task;) {
        Header* next = task->queue_next;
        taken.push_back(task);
        task = next;
      }
    });
    std::vector<Header*> popped;
    for (std::size_t i = 0; i < 5; ++i) ring.push_back_or_overflow(tasks[i], inject);  // the fifth overflows
    if (Header* task = ring.pop()) popped.push_back(task);
    ring.push_back_or_overflow(tasks[5], inject);
    other.join();
    TaskTally tally(tasks);
    tally.add(taken);
    tally.add(popped);
    tally.drain(ring);
    tally.drain(inject);
    tally.check_each_once();
  });
}
