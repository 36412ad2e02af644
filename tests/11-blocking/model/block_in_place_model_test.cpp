// Chapter 11, under the model checker: block_in_place's hand-off of a
// worker's core, with the real hand_off_core, take_back_core and
// blocking pool of a one-worker MultiThread that is built but never
// started. The body's thread plays worker 0 entering and leaving a
// blocking section (in the last test, one more thread holds the core
// meanwhile and sets it down again); the pool's thread that a hand-off
// starts takes the core up and runs worker 0's loop. The runtime's queue
// is closed first, so that the loop, once it has the core, runs what the
// core holds and ends: what is checked is who came away with the core,
// and with what.
#include <cstddef>
#include <memory>
#include <optional>

#include "model.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"
#include "rt/task/cell.hpp"
#include "rt/task/harness.hpp"
#include "rt/task/join_handle.hpp"

namespace rt::detail {

// What the tests reach inside the scheduler (a friend of MultiThread).
struct MultiThreadModelAccess {
  // This thread is worker `index`, as its loop would make it.
  static void become_worker(MultiThread& scheduler, std::size_t index) { scheduler.set_current_worker(index); }
  static void stop_being_a_worker(MultiThread& scheduler) { scheduler.set_current_worker(std::nullopt); }
  static bool is_a_worker(const MultiThread& scheduler) { return scheduler.current_worker().has_value(); }
  // The runtime shuts down: a worker loop ends as soon as it finds no task.
  static void close_queue(MultiThread& scheduler) { (void)scheduler.inject_.close(); }
  // Worker 0's loop ran to its end on some thread.
  static bool loop_ended(MultiThread& scheduler) { return scheduler.cores_done_.try_wait(); }
  // What worker `index`'s thread does with its own core: put the task it
  // runs next in the LIFO slot, take the next task from its ring.
  static void put_in_slot(MultiThread& scheduler, std::size_t index, Header* task) {
    scheduler.workers_[index].lifo_slot = task;
  }
  static Header* pop_own(MultiThread& scheduler, std::size_t index) { return scheduler.workers_[index].run_queue.pop(); }
};

}  // namespace rt::detail

namespace {

using Access = rt::detail::MultiThreadModelAccess;
using rt::detail::Header;
using rt::detail::MultiThread;

// The scheduler of a task polled once by whoever holds the core: in no
// owned list, and never woken again.
class RunOnce final : public rt::detail::Schedule {
 public:
  void schedule(Header*) override { model::check(false, "a task that never waits was scheduled again"); }
  bool release(Header&) override { return false; }
};

rt::Task<> nothing() { co_return; }

std::shared_ptr<MultiThread> one_worker() {
  rt::detail::MultiThreadConfig config;
  config.workers = 1;
  auto scheduler = std::make_shared<MultiThread>(config);
  Access::close_queue(*scheduler);
  return scheduler;
}

}  // namespace

TEST_CASE("model: the core that block_in_place sets down is taken up by exactly one thread" * POINTS(2)) {
  // The blocking function returns at once: the body's thread tries to
  // take its core back while the new thread tries to take it up.
  rt_test::explore([] {
    std::shared_ptr<MultiThread> scheduler = one_worker();
    Access::become_worker(*scheduler, 0);
    std::optional<std::size_t> handed = scheduler->enter_blocking_section();
    model::check(handed == std::size_t{0}, "a worker entering a blocking section did not hand off its core");
    model::check(!Access::is_a_worker(*scheduler), "the thread is still a worker after handing its core off");
    scheduler->leave_blocking_section(0);
    bool took_back = Access::is_a_worker(*scheduler);
    scheduler->shutdown_blocking_pool(std::nullopt);
    bool new_thread_ran = Access::loop_ended(*scheduler);
    model::check(!(took_back && new_thread_ran),
                 "two threads hold the core: the blocking thread took it back while the new thread ran the loop");
    model::check(took_back || new_thread_ran,
                 "nobody holds the core: the blocking thread did not take it back and no new thread took it up");
    Access::stop_being_a_worker(*scheduler);
  });
}

TEST_CASE("model: while the function blocks a new thread takes the core up and the blocking thread leaves it" * POINTS(1)) {
  // The blocking function waits until the core's loop has run on another
  // thread (it blocks for as long as that takes): the hand-off must have
  // started a thread that finds the core down.
  rt_test::explore([] {
    std::shared_ptr<MultiThread> scheduler = one_worker();
    Access::become_worker(*scheduler, 0);
    (void)scheduler->enter_blocking_section();
    for (int spins = 0; !Access::loop_ended(*scheduler); ++spins) {
      model::check(spins < 100, "while the function blocked no thread took the core up: the worker's tasks wait for it");
      model::yield_now();
    }
    scheduler->leave_blocking_section(0);
    model::check(!Access::is_a_worker(*scheduler),
                 "the blocking thread took back a core that the new thread had taken up");
    scheduler->shutdown_blocking_pool(std::nullopt);
    Access::stop_being_a_worker(*scheduler);
  });
}

TEST_CASE("model: a core set down by the thread that took it up comes back to the first thread with what it holds" * POINTS(2)) {
  // Worker 0's core went from thread A (the body's) to thread B, and A's
  // blocking function returns just as B, in a blocking section of its
  // own, sets the core down again with a task in it. Whoever takes the
  // core up (A taking it back, or the pool thread B's hand-off starts)
  // must find the task: what B wrote into the core is handed over by
  // the set-down (release) and the take (acquire), and by nothing else
  // when A takes it.
  rt_test::explore([] {
    std::shared_ptr<MultiThread> scheduler = one_worker();
    auto* task = rt::detail::Cell<void>::create(std::make_shared<RunOnce>(), nothing());
    rt::JoinHandle<void> handle(task);
    model::thread b([&] {
      Access::become_worker(*scheduler, 0);  // B holds the core
      Access::put_in_slot(*scheduler, 0, task);
      (void)scheduler->enter_blocking_section();  // the slot's task goes to the ring; the core is set down
    });
    scheduler->leave_blocking_section(0);  // A's blocking function returned
    if (Access::is_a_worker(*scheduler)) {
      // A is worker 0 again: its loop runs what the core holds.
      Header* next = Access::pop_own(*scheduler, 0);
      model::check(next == task, "the thread that took the core back found its ring empty: the task in it is lost");
      if (next) rt::detail::poll(next);
    }
    b.join();
    scheduler->shutdown_blocking_pool(std::nullopt);
    model::check(handle.is_finished(), "nobody ran the task that was in the core");
    rt::detail::drop_reference(task);  // the one an owned list would give up
    Access::stop_being_a_worker(*scheduler);
  });
}
