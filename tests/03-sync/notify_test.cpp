// Chapter 03: Notify: a stored permit for notify_one, FIFO wake-ups, and
// notify_waiters for the current waiters only.
#include <string>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "small_tasks.hpp"

namespace {

rt::Task<> wait_and_log(rt::Notify& notify, std::string& log, char name) {
  co_await notify.notified();
  log += name;
}

}  // namespace

TEST_CASE("notify_one with nobody waiting stores one permit and only one" * POINTS(2)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::Notify notify;
      notify.notify_one();
      notify.notify_one();  // still one permit
      co_await notify.notified();  // takes it without waiting
      std::string log;
      auto waiter = rt::spawn(wait_and_log(notify, log, 'w'));
      co_await rt_test::yield_times(5);
      CHECK(log.empty());  // no second permit
      notify.notify_one();
      co_await waiter;
      CHECK(log == "w");
    }());
  });
}

TEST_CASE("notify_one wakes one waiter at a time oldest first" * POINTS(1)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::Notify notify;
      std::string log;
      std::vector<rt::JoinHandle<void>> waiters;
      for (char name : std::string("abc")) waiters.push_back(rt::spawn(wait_and_log(notify, log, name)));
      co_await rt_test::yield_times(3);
      notify.notify_one();
      co_await rt_test::yield_times(3);
      CHECK(log == "a");
      notify.notify_one();
      notify.notify_one();
      for (auto& waiter : waiters) co_await waiter;
      CHECK(log == "abc");
    }());
  });
}

TEST_CASE("notify_waiters wakes the current waiters only and stores no permit" * POINTS(2)) {
  // The tasks take turns, set by yield_now: with one thread running every
  // task in queue order, as only a current-thread runtime promises.
  rt_test::on_current_thread([&](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::Notify notify;
      std::string log;
      auto a = rt::spawn(wait_and_log(notify, log, 'a'));
      auto b = rt::spawn(wait_and_log(notify, log, 'b'));
      co_await rt_test::yield_times(3);
      // Created before the call but not yet polled: it counts as waiting.
      auto early = notify.notified();
      notify.notify_waiters();
      co_await a;
      co_await b;
      co_await early;
      CHECK(log == "ab");

      auto late = rt::spawn(wait_and_log(notify, log, 'c'));
      co_await rt_test::yield_times(5);
      CHECK(log == "ab");  // notify_waiters left no permit behind
      notify.notify_one();
      co_await late;
      CHECK(log == "abc");
    }());
  });
}
