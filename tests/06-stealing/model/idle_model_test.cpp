// Chapter 06, under the model checker: the count of searching workers, in
// the low bits of Idle's one atomic word. Workers start and stop searching
// on their own threads at any moment; each body runs under every schedule
// within the bound. Mirrors the searching transitions of Tokio's
// runtime/scheduler/multi_thread/idle.rs.
#include "model.hpp"
#include "rt/scheduler/multi_thread/idle.hpp"

using rt::detail::Idle;

TEST_CASE("model: of two searchers that stop at once exactly one is told it was the last and none stays counted" * POINTS(2)) {
  // The last searcher to stop must wake another worker to search on: told
  // twice, two wake; told never, a task queued for the searchers waits.
  rt_test::explore([] {
    Idle idle(4);
    model::atomic<int> searching{0};  // both search before either stops
    bool other_last = false;
    model::thread other([&] {
      model::check(idle.transition_worker_to_searching(), "one of four workers was refused as a searcher");
      searching.fetch_add(1, std::memory_order_acq_rel);
      while (searching.load(std::memory_order_acquire) < 2) model::yield_now();
      other_last = idle.transition_worker_from_searching();
    });
    model::check(idle.transition_worker_to_searching(), "one of four workers was refused as a searcher");
    searching.fetch_add(1, std::memory_order_acq_rel);
    while (searching.load(std::memory_order_acquire) < 2) model::yield_now();
    bool last = idle.transition_worker_from_searching();
    other.join();
    model::check(idle.num_searching() == 0, "both searchers stopped, but the count of searchers is not back to 0");
    model::check(last != other_last, "two searchers stopped together: exactly one must be told it was the last");
  });
}

TEST_CASE("model: while two of four workers search a third may start only once one of them has stopped" * POINTS(1)) {
  rt_test::explore([] {
    Idle idle(4);
    model::check(idle.transition_worker_to_searching(), "the first of four workers was refused as a searcher");
    model::check(idle.transition_worker_to_searching(), "the second of four workers was refused as a searcher");
    model::atomic<bool> stopping{false};
    model::thread leaver([&] {
      stopping.store(true, std::memory_order_seq_cst);
      idle.transition_worker_from_searching();
    });
    if (idle.transition_worker_to_searching()) {
      model::check(stopping.load(std::memory_order_seq_cst),
                   "a third of four workers was let search while two searched (the limit is half)");
      idle.transition_worker_from_searching();
    }
    leaver.join();
    model::check(idle.num_searching() == 1, "one searcher is left, but the count of searchers says otherwise");
  });
}
