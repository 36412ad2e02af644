// Chapter 02, under the model checker: the state word and the task waker,
// with a wake, a poll, a completion and a JoinHandle on different threads.
// Each body runs under every schedule within the bound (two preemptions),
// and what it checks is what the runtime relies on: a wake is never lost,
// a task is queued once however many wakes come, the reference count is
// the number of references, and the last one frees the task, once.
#include "counting_waker.hpp"
#include "model_task.hpp"

namespace {

using wakers_model::check_freed_once;
using wakers_model::ModelTask;

// A new waker for `task`, with a reference of its own (the task waker's clone).
rt::Waker clone_waker(ModelTask& task) {
  rt::WakerRef borrowed(rt::detail::raw_task_waker(&task));
  return borrowed.get();
}

std::size_t references(const ModelTask& task) { return task.state.load().ref_count(); }

}  // namespace

TEST_CASE("model: a wake from another thread during the poll is never lost and queues the task exactly once" *
          POINTS(3)) {
  rt_test::explore([] {
    rt::Waker kept_waker;
    model::atomic<bool> kept{false};
    ModelTask task(1, &kept_waker, &kept);  // pending on its first poll, ready on its second
    model::thread worker([&] { task.run_once(); });
    while (!kept.load(std::memory_order_acquire)) model::yield_now();
    kept_waker.wake_by_ref();  // during the poll, or just after it
    worker.join();
    model::check(task.queue().scheduled() == 2,
                 "the task was woken once after spawn and must be queued exactly once more: "
                 "the wake was lost (never queued) or queued twice");
    model::check(references(task) == 4,
                 "after the first poll the count must be 4 (the owned list, the JoinHandle, the kept waker, "
                 "the queued Notified)");
    task.run_once();
    model::check(task.state.load().is_complete(), "the second poll should have completed the task");
    kept_waker = rt::Waker();
    rt::detail::drop_join_handle(&task);
    check_freed_once(task);
  });
}

TEST_CASE("model: two wakes on two threads one by reference and one by value queue an idle task exactly once" *
          POINTS(2)) {
  rt_test::explore([] {
    rt::Waker kept_waker;
    model::atomic<bool> kept{false};
    ModelTask task(1, &kept_waker, &kept);
    task.run_once();  // pending: idle, and its waker kept
    rt::Waker by_value = kept_waker;
    model::thread first([&] { kept_waker.wake_by_ref(); });
    model::thread second([&] { by_value.wake(); });
    first.join();
    second.join();
    model::check(task.queue().scheduled() == 2,
                 "two wakes of an idle task must queue it exactly once: both saw it idle and both queued it, "
                 "or neither did");
    model::check(references(task) == 4,
                 "the count must be 4 (the owned list, the JoinHandle, the kept waker, the queued Notified): "
                 "the waker woken by value must give its reference up");
    task.run_once();
    kept_waker = rt::Waker();
    rt::detail::drop_join_handle(&task);
    check_freed_once(task);
  });
}

TEST_CASE("model: a waker woken by value and a JoinHandle dropped while the task completes free it exactly once" *
          POINTS(2)) {
  rt_test::explore([] {
    ModelTask task(0);  // ready on its first poll
    rt::Waker waker = clone_waker(task);
    model::thread worker([&] { task.run_once(); });
    model::thread waking([&] { waker.wake(); });
    rt::detail::drop_join_handle(&task);
    worker.join();
    waking.join();
    model::check(task.outputs_dropped() == 1,
                 "nobody joins the task: its output must be destroyed once, by whichever of the completion and "
                 "the JoinHandle's drop comes second");
    check_freed_once(task);
  });
}

TEST_CASE("model: a JoinHandle polled while the task completes on another thread is woken once or sees the output" *
          POINTS(2)) {
  rt_test::explore([] {
    CountingWaker joiner;
    ModelTask task(0);
    model::thread worker([&] { task.run_once(); });
    bool ready = rt::detail::poll_join(&task, joiner.waker());
    if (ready) model::check(task.read_output() == ModelTask::kValue, "the output read is not the task's");
    worker.join();
    if (!ready) {
      model::check(joiner.wakes() == 1,
                   "the JoinHandle left its waker and waits, and the completion did not wake it: it waits for ever");
      model::check(rt::detail::poll_join(&task, joiner.waker()), "woken, the JoinHandle must find the task complete");
      model::check(task.read_output() == ModelTask::kValue, "the output read is not the task's");
    }
    rt::detail::drop_join_handle(&task);
    model::check(joiner.held() == 0, "the join waker left with the task was never dropped");
    check_freed_once(task);
  });
}

TEST_CASE("model: abort while the task is polled on another thread cancels it once and frees it once" * POINTS(1)) {
  rt_test::explore([] {
    rt::Waker kept_waker;
    model::atomic<bool> kept{false};
    ModelTask task(1, &kept_waker, &kept);  // would be ready on its second poll
    model::thread worker([&] { task.run_once(); });
    while (!kept.load(std::memory_order_acquire)) model::yield_now();
    rt::detail::abort_task(&task);  // during the poll or just after it
    worker.join();
    model::check(task.cancelled() == 1, "aborted before it could finish, the task must be cancelled exactly once");
    model::check(task.state.load().is_complete(), "a cancelled task is complete");
    model::check(references(task) == 2,
                 "a cancelled task keeps two references (the JoinHandle's and the kept waker's): abort must "
                 "leave the JoinHandle's with the JoinHandle");
    kept_waker = rt::Waker();
    rt::detail::drop_join_handle(&task);
    check_freed_once(task);
  });
}
