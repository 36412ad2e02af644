// Chapter 03, under the model checker: Notify's notify_one against the
// polls of waiters on other threads, under every schedule within the bound.
// Notify's waiter list (rt/sync/wait_list.hpp) keeps its ends in
// UnsafeCells: a touch of it outside Notify's mutex is a data race the
// checker reports.
#include "polling.hpp"

TEST_CASE("model: notify_one racing a waiter's first poll is never lost and each notification is used once" *
          POINTS(2)) {
  rt_test::explore([] {
    rt::Notify notify;
    // The first waiter is queued before anything else happens.
    CountingWaker first_waker;
    rt::Context first_cx(first_waker.waker());
    auto first = notify.notified();
    model::check(!first.poll(first_cx), "with nothing notified yet, a waiter must wait");
    // Two notify_one calls on one thread, as a second waiter polls on another.
    model::atomic<bool> notified_twice{false};
    model::thread notifier([&] {
      notify.notify_one();
      notify.notify_one();
      notified_twice.store(true, std::memory_order_release);
    });
    CountingWaker second_waker;
    bool second_ready = false;
    model::thread second([&] {
      rt::Context cx(second_waker.waker());
      auto notified = notify.notified();
      bool ready = notified.poll(cx);  // before, between or after the notify_one calls
      if (!ready) {
        sync_model::wait_for_wake(second_waker, 0, [&] { return notified_twice.load(std::memory_order_acquire); });
        ready = notified.poll(cx);
      }
      second_ready = ready;
    });
    notifier.join();
    second.join();
    model::check(first_waker.wakes() == 1, "the oldest waiter was not woken by the first notify_one");
    model::check(first.poll(first_cx), "woken by notify_one, the oldest waiter's next poll must be ready");
    model::check(second_ready,
                 "the second notify_one was for the second waiter: it must find the permit, or be woken and ready");
    auto third = notify.notified();
    model::check(!third.poll(first_cx), "two notifications were used by two waiters: a third waiter must wait");
  });
}
