// Chapter 12, under the model checker: the JoinSet's two lists (idle and
// notified), its entries' wakers and its waiter, with the real
// JoinSetList, JoinSetTask and JoinNext, and real tasks that complete on
// threads of the test's own. Every schedule of a completion against
// join_next's poll (with at most two preemptions) is run; a join_next
// left waiting with nobody to wake it is a deadlock the checker reports.
#include <memory>
#include <optional>
#include <vector>

#include "capstone_model.hpp"
#include "model.hpp"
#include "rt/task/join_set.hpp"

namespace {

using ch12_model::WaitableWaker;
using rt::detail::JoinSetList;

using JoinNext = rt::JoinSet<int>::JoinNext;

// Puts `task` into the set, as JoinSet::spawn does with the JoinHandle.
void insert(const std::shared_ptr<JoinSetList>& list, rt::detail::Cell<int>* task) {
  list->insert(new rt::detail::JoinSetTask<int>(list, rt::JoinHandle<int>(task)));
}

// `co_await set.join_next()` on this thread: polls, and waits for the
// waker between polls. Each poll that is pending must be followed by a
// wake-up, or the task that awaits it would sleep for ever.
std::optional<int> join_next(JoinSetList& list, WaitableWaker& waker) {
  JoinNext next(list);
  rt::Context cx(waker.waker());
  for (int polls = 0;; ++polls) {
    model::check(polls < 4, "join_next was woken again and again without finding its task");
    int woken = waker.wakes();
    if (next.poll(cx)) return next.await_resume();
    waker.wait_woken(woken + 1);  // a completion that woke nobody: a deadlock
  }
}

}  // namespace

TEST_CASE("model: a task that finishes while join_next polls is returned or wakes the waiting JoinSet" * POINTS(3)) {
  rt_test::explore([] {
    WaitableWaker waker;
    auto list = std::make_shared<JoinSetList>();
    rt::detail::Cell<int>* task = ch12_model::make_task(7);
    insert(list, task);
    model::thread runner([&] { ch12_model::run(task); });
    std::optional<int> value = join_next(*list, waker);
    model::check(value == 7, "join_next did not return the finished task's value");
    runner.join();
    model::check(!join_next(*list, waker).has_value(),
                 "the set is not empty after its only task was returned: the entry stayed in it");
  });
}

TEST_CASE("model: two tasks that finish while join_next polls are each returned exactly once" * POINTS(2)) {
  rt_test::explore([] {
    WaitableWaker waker;
    auto list = std::make_shared<JoinSetList>();
    rt::detail::Cell<int>* first = ch12_model::make_task(1);
    rt::detail::Cell<int>* second = ch12_model::make_task(2);
    insert(list, first);
    insert(list, second);
    model::thread runner([&] {
      ch12_model::run(first);
      ch12_model::run(second);
    });
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 2; ++i) {
      std::optional<int> value = join_next(*list, waker);
      model::check(value == 1 || value == 2, "join_next said the set was empty before both tasks were returned");
      if (value == 1 || value == 2) ++seen[*value];
    }
    model::check(seen[1] == 1 && seen[2] == 1, "a task was returned twice and the other never");
    model::check(!join_next(*list, waker).has_value(), "the set is not empty after both tasks were returned");
    runner.join();
  });
}
