// Chapter 04, under the model checker: a worker going to sleep against
// whoever queues a task, with the real global queue, idle set and parkers
// of a MultiThread that is built but never started. Each body plays the
// worker's loop on threads of its own (take a task, or park), with task
// headers that are never polled, and runs under every schedule within the
// bound: a worker asleep for good is a deadlock the checker reports.
#include <cstddef>
#include <memory>
#include <optional>

#include "fake_tasks.hpp"
#include "model.hpp"
#include "rt/scheduler/inject.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

// What the tests reach inside the scheduler (a friend of MultiThread).
struct MultiThreadModelAccess {
  static Inject& inject(MultiThread& scheduler) { return scheduler.inject_; }
  static Idle& idle(MultiThread& scheduler) { return scheduler.idle_; }
  static void park(MultiThread& scheduler, std::size_t index) { scheduler.park(index); }
  static void run(MultiThread& scheduler, std::size_t index) { scheduler.run(index); }
};

}  // namespace rt::detail

namespace {

using Access = rt::detail::MultiThreadModelAccess;
using rt::detail::Header;
using rt::detail::Inject;
using rt::detail::MultiThread;

rt::detail::MultiThreadConfig with_workers(std::size_t workers) {
  rt::detail::MultiThreadConfig config;
  config.workers = workers;
  return config;
}

// Worker `index`'s loop, until it has taken one task: take one from the
// global queue, or park until there may be one.
Header* take_one(MultiThread& scheduler, std::size_t index) {
  for (;;) {
    if (Header* task = Access::inject(scheduler).pop()) return task;
    Access::park(scheduler, index);
  }
}

}  // namespace

TEST_CASE("model: a task queued while a worker goes to sleep is never slept through: the worker takes it or is woken for it" * POINTS(2)) {
  // The worker found the queue empty and goes to sleep; meanwhile a
  // task is queued. Either the worker's last look finds it, or the
  // queuer finds the worker listed asleep and wakes it.
  rt_test::explore([] {
    FakeTasks tasks(1);
    MultiThread scheduler(with_workers(1));
    Header* taken = nullptr;
    model::thread worker([&] { taken = take_one(scheduler, 0); });
    scheduler.schedule(tasks[0]);
    worker.join();
    model::check(taken == tasks[0], "the worker took no task, or another one");
    model::check(Access::idle(scheduler).num_sleeping() == 0,
                 "the worker runs, yet the idle set still counts it asleep");
  });
}

TEST_CASE("model: two tasks queued one after the other wake two different sleeping workers" * POINTS(2)) {
  // Each wake-up must take its own sleeper off the list, and the count of
  // sleepers must follow the list while workers list themselves.
  rt_test::explore([] {
    FakeTasks tasks(2);
    MultiThread scheduler(with_workers(2));
    Header* taken[2] = {nullptr, nullptr};
    model::thread first([&] { taken[0] = take_one(scheduler, 0); });
    model::thread second([&] { taken[1] = take_one(scheduler, 1); });
    scheduler.schedule(tasks[0]);
    scheduler.schedule(tasks[1]);
    first.join();
    second.join();
    model::check(taken[0] && taken[1] && taken[0] != taken[1], "the two workers did not take one task each");
    model::check(Access::idle(scheduler).num_sleeping() == 0,
                 "both workers run, yet the idle set still counts one asleep");
  });
}

TEST_CASE("model: two wake-ups at once take two different sleepers off the idle list while another worker lists itself" * POINTS(2)) {
  // The idle set alone: worker 0 sleeps; two notifiers, and worker 1
  // listing itself, all at once. Its count must follow its list, or a
  // later task wakes nobody.
  rt_test::explore([] {
    rt::detail::Idle idle(2);
    idle.transition_worker_to_parked(0);
    std::optional<std::size_t> woken[2];
    model::thread notifier([&] { woken[1] = idle.worker_to_notify(); });
    model::thread sleeper([&] { idle.transition_worker_to_parked(1); });
    woken[0] = idle.worker_to_notify();
    notifier.join();
    sleeper.join();
    model::check(!(woken[0] && woken[1] && *woken[0] == *woken[1]), "two wake-ups went to the same worker");
    std::size_t counted = idle.num_sleeping();
    std::size_t listed = idle.take_all().size();
    model::check(counted == listed, "the count of sleepers and the list of them disagree");
    model::check(listed + (woken[0] ? 1 : 0) + (woken[1] ? 1 : 0) == 2, "a worker was lost: neither woken nor still listed");
  });
}

TEST_CASE("model: shutdown wakes a sleeping worker and the worker leaves its loop" * POINTS(2)) {
  // The worker runs its real loop (run) with nothing to do, so it goes to
  // sleep; shutdown, from another thread, must get it out whenever it
  // lands.
  rt_test::explore([] {
    auto scheduler = std::make_shared<MultiThread>(with_workers(1));
    model::thread worker([&] { Access::run(*scheduler, 0); });
    scheduler->shutdown();
    worker.join();
  });
}

TEST_CASE("model: a task pushed while the queue closes is either refused or handed over by close and never stranded" * POINTS(1)) {
  rt_test::explore([] {
    FakeTasks tasks(1);
    Inject inject;
    bool pushed = false;
    model::thread pusher([&] { pushed = inject.push(tasks[0]); });
    Header* handed = inject.close();
    pusher.join();
    bool in_handed = false;
    for (Header* task = handed; task; task = task->queue_next) in_handed = in_handed || task == tasks[0];
    if (pushed) {
      model::check(in_handed, "push() accepted the task after close() had emptied the queue: nobody will ever run or free it");
    } else {
      model::check(!in_handed, "push() refused the task, yet close() handed it over");
    }
    model::check(inject.len() == 0 && inject.pop() == nullptr, "after close() the queue still holds a task");
  });
}

TEST_CASE("model: a push and a pop at once keep the queue's length equal to the tasks it holds" * POINTS(1)) {
  rt_test::explore([] {
    FakeTasks tasks(2);
    Inject inject;
    inject.push(tasks[0]);
    model::thread pusher([&] { inject.push(tasks[1]); });
    Header* popped = inject.pop();
    pusher.join();
    model::check(popped == tasks[0], "the pop did not get the task queued before it");
    model::check(inject.len() == 1, "the queue holds one task, but its length says otherwise");
    model::check(inject.pop() == tasks[1], "the task pushed meanwhile is lost");
  });
}
