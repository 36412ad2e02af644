// Chapter 12: JoinSet. Tasks come out of join_next in the order they
// finish; the set's length counts the tasks not yet joined; a completion
// wakes the task waiting in join_next; a task the set forgot never comes
// back; destroying the set, or its shutdown, aborts what is left. The order of completions
// is forced with oneshot channels, never left to timing.
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "counting_waker.hpp"
#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

rt::Task<int> wait_for(rt::oneshot::Receiver<int> receiver) { co_return co_await receiver; }

// Runs the spawned tasks until none can make progress: on a current-thread
// runtime, by yielding from the root; on a multi-thread one, a yield lets
// the workers run too, so the check below waits for the effect itself.
rt::Task<> settle() {
  for (int i = 0; i < 50; ++i) co_await rt::yield_now();
}

// A task's value that looks at its JoinSet as it is destroyed, as a guard
// that deregisters itself might: it counts what len() said, plus one.
class LooksAtSet {
 public:
  LooksAtSet(rt::JoinSet<LooksAtSet>* set, std::size_t* seen) : set_(set), seen_(seen) {}
  LooksAtSet(LooksAtSet&& other) noexcept : set_(std::exchange(other.set_, nullptr)), seen_(other.seen_) {}
  LooksAtSet& operator=(LooksAtSet&&) = delete;
  ~LooksAtSet() {
    if (set_) *seen_ = set_->len() + 1;
  }

 private:
  rt::JoinSet<LooksAtSet>* set_;
  std::size_t* seen_;
};

}  // namespace

TEST_CASE("join_next gives the tasks in the order they finish and not in the order they were spawned" * POINTS(3)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      std::vector<rt::oneshot::Sender<int>> senders;
      for (int i = 0; i < 3; ++i) {
        auto [sender, receiver] = rt::oneshot::channel<int>();
        senders.push_back(std::move(sender));
        set.spawn(wait_for(std::move(receiver)));
      }
      for (int finished : {2, 0, 1}) {
        senders[finished].send(finished * 10);
        std::optional<int> next = co_await set.join_next();
        REQUIRE(next.has_value());
        CHECK_MESSAGE(*next == finished * 10, "join_next gave a task other than the one that had just finished");
      }
      std::optional<int> none = co_await set.join_next();
      CHECK_MESSAGE(!none.has_value(), "join_next on a set whose tasks were all joined gave a value");
    }());
  });
}

TEST_CASE("len counts the tasks not yet joined and join_next on an empty set ends at once" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      CHECK(set.is_empty());
      CHECK(!(co_await set.join_next()).has_value());
      for (int i = 0; i < 4; ++i) set.spawn([](int v) -> rt::Task<int> { co_return v; }(i));
      CHECK(set.len() == 4);
      int sum = 0;
      for (std::size_t left = 3; std::optional<int> next = co_await set.join_next(); --left) {
        sum += *next;
        CHECK_MESSAGE(set.len() == left, "a task joined by join_next is still counted in len()");
        if (left == 0) break;
      }
      CHECK(sum == 0 + 1 + 2 + 3);
      CHECK(set.is_empty());
      CHECK(!(co_await set.join_next()).has_value());
    }());
  });
}

TEST_CASE("a task that finishes after join_next began waiting wakes the waiter exactly once" * POINTS(3)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      auto [sender, receiver] = rt::oneshot::channel<int>();
      set.spawn(wait_for(std::move(receiver)));
      co_await settle();  // the task waits on its channel now
      CountingWaker waker;
      rt::Context cx(waker.waker());
      auto next = set.join_next();
      REQUIRE_MESSAGE(!next.poll(cx), "join_next was ready though no task had finished");
      sender.send(7);
      co_await settle();  // the task finishes
      CHECK_MESSAGE(waker.wakes() == 1, "the task's completion did not wake the task waiting in join_next");
      REQUIRE(next.poll(cx));
      std::optional<int> value = next.await_resume();
      CHECK(value == std::optional<int>(7));
    }());
  });
}

TEST_CASE("a task that threw comes out of join_next as a JoinError and the set goes on" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      set.spawn([]() -> rt::Task<int> {
        throw std::runtime_error("boom");
        co_return 0;
      }());
      bool failed = false;
      try {
        co_await set.join_next();
      } catch (const rt::JoinError& error) {
        failed = error.is_panic();
      }
      CHECK(failed);
      CHECK(set.is_empty());
      set.spawn([]() -> rt::Task<int> { co_return 5; }());
      CHECK((co_await set.join_next()) == std::optional<int>(5));
    }());
  });
}

TEST_CASE("abort_all cancels every task and each still comes out of join_next as cancelled" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      std::vector<rt::oneshot::Sender<int>> senders;  // never used: the tasks wait for ever
      for (int i = 0; i < 3; ++i) {
        auto [sender, receiver] = rt::oneshot::channel<int>();
        senders.push_back(std::move(sender));
        set.spawn(wait_for(std::move(receiver)));
      }
      set.abort_all();
      int cancelled = 0;
      for (int i = 0; i < 3; ++i) {
        try {
          co_await set.join_next();
        } catch (const rt::JoinError& error) {
          if (error.is_cancelled()) ++cancelled;
        }
      }
      CHECK(cancelled == 3);
      CHECK(!(co_await set.join_next()).has_value());
    }());
  });
}

TEST_CASE("a detached task runs on and its completion does not bring it back into the set" * POINTS(3)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<int> set;
      auto [sender, receiver] = rt::oneshot::channel<int>();
      auto [done, finished] = rt::oneshot::channel<int>();
      set.spawn([](rt::oneshot::Receiver<int> in, rt::oneshot::Sender<int> out) -> rt::Task<int> {
        int v = co_await in;
        out.send(v);
        co_return v;
      }(std::move(receiver), std::move(done)));
      co_await settle();
      set.detach_all();
      CHECK(set.is_empty());
      set.spawn([]() -> rt::Task<int> { co_return 2; }());
      sender.send(1);
      CHECK_MESSAGE((co_await finished) == 1, "a detached task did not run on");
      std::optional<int> next = co_await set.join_next();
      CHECK_MESSAGE(next == std::optional<int>(2), "join_next gave a task the set had detached");
      CHECK_MESSAGE(!(co_await set.join_next()).has_value(), "a detached task came back into the set when it finished");
    }());
  });
}

TEST_CASE("destroying a JoinSet aborts the tasks it still holds" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto [sender, receiver] = rt::oneshot::channel<int>();
      // The waiting task holds `gone`'s sender: when its frame is destroyed,
      // the receiver hears that the sender went without sending.
      auto [gone_sender, gone] = rt::oneshot::channel<int>();
      {
        rt::JoinSet<int> set;
        set.spawn([](rt::oneshot::Receiver<int> in, rt::oneshot::Sender<int> keep) -> rt::Task<int> {
          (void)keep;
          co_return co_await in;
        }(std::move(receiver), std::move(gone_sender)));
        set.spawn([]() -> rt::Task<int> { co_return 7; }());
        // The quick task is joined first: the set is alive and working when
        // it is destroyed with the other task still waiting on its channel.
        std::optional<int> quick = co_await set.join_next();
        REQUIRE(quick.has_value());
        CHECK(*quick == 7);
        CHECK(set.len() == 1);
      }
      bool cancelled = false;
      try {
        co_await gone;
      } catch (const rt::oneshot::RecvError&) {
        cancelled = true;
      }
      CHECK_MESSAGE(cancelled, "a task of a destroyed JoinSet was not cancelled");
      (void)sender;
    }());
  });
}

namespace {

rt::Task<> shut_down(rt::JoinSet<int>& set) { co_await set.shutdown(); }

}  // namespace

TEST_CASE("shutdown aborts the tasks still waiting and returns once each has ended" * POINTS(2)) {
  // Current-thread: a bounded number of yields runs every abort through.
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      std::vector<rt::oneshot::Sender<int>> senders;  // never used: the tasks wait for ever
      std::vector<rt::oneshot::Receiver<int>> gone;   // each hears its task's frame destroyed
      rt::JoinSet<int> set;
      for (int i = 0; i < 3; ++i) {
        auto [sender, receiver] = rt::oneshot::channel<int>();
        auto [gone_sender, gone_receiver] = rt::oneshot::channel<int>();
        senders.push_back(std::move(sender));
        gone.push_back(std::move(gone_receiver));
        set.spawn([](rt::oneshot::Receiver<int> in, rt::oneshot::Sender<int> keep) -> rt::Task<int> {
          (void)keep;
          co_return co_await in;
        }(std::move(receiver), std::move(gone_sender)));
      }
      co_await settle();  // all three wait on their channels
      rt::JoinHandle<void> closing = rt::spawn(shut_down(set));
      co_await settle();
      INFO("shutdown must abort the tasks, not only wait for them: these wait for ever");
      CHECK(closing.is_finished());
      CHECK(set.is_empty());
      if (!closing.is_finished()) {
        set.abort_all();  // what shutdown forgot, so that the test ends
        co_await closing;
        co_return;
      }
      int cancelled = 0;
      for (auto& receiver : gone) {
        try {
          co_await receiver;
        } catch (const rt::oneshot::RecvError&) {
          ++cancelled;
        }
      }
      CHECK(cancelled == 3);
    }());
  });
}

// Current-thread only: on a worker, a task is unlinked from the runtime just
// after it wakes its joiner, so the count lags join_next by a moment.
TEST_CASE("num_alive_tasks counts the tasks of a JoinSet until they finish" * POINTS(1)) {
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    runtime.block_on([](rt::Runtime& rt) -> rt::Task<> {
      rt::JoinSet<int> set;
      std::vector<rt::oneshot::Sender<int>> senders;
      for (int i = 0; i < 5; ++i) {
        auto [sender, receiver] = rt::oneshot::channel<int>();
        senders.push_back(std::move(sender));
        set.spawn(wait_for(std::move(receiver)));
      }
      CHECK(rt.metrics().num_alive_tasks() == 5);
      for (int i = 0; i < 5; ++i) {
        senders[i].send(i);
        co_await set.join_next();
        CHECK(rt.metrics().num_alive_tasks() == static_cast<std::size_t>(4 - i));
      }
    }(runtime));
  });
}

TEST_CASE("detach_all empties the set and a detached task's value is destroyed when it finishes" * POINTS(1)) {
  // Current-thread: the task finishes in the poll that sends, before the
  // root runs again, so the moment to look is exact.
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      auto value = std::make_shared<int>(3);
      std::weak_ptr<int> watch = value;
      auto [sender, receiver] = rt::oneshot::channel<int>();
      auto [done, finished] = rt::oneshot::channel<int>();
      rt::JoinSet<std::shared_ptr<int>> set;
      set.spawn([](rt::oneshot::Receiver<int> in, rt::oneshot::Sender<int> out,
                   std::shared_ptr<int> v) -> rt::Task<std::shared_ptr<int>> {
        co_await in;
        out.send(1);
        co_return v;
      }(std::move(receiver), std::move(done), std::move(value)));
      co_await settle();
      set.detach_all();
      CHECK(set.is_empty());
      CHECK_MESSAGE(!(co_await set.join_next()).has_value(), "join_next gave a task that detach_all had let go");
      sender.send(1);
      co_await finished;
      CHECK_MESSAGE(watch.expired(), "a detached task's value was kept: something still holds its JoinHandle");
    }());
  });
}

TEST_CASE("detach_all lets its tasks go after unlocking: a finished task's value may look at the set as it goes" * POINTS(1)) {
  // Current-thread: the task finishes before the root runs again, and its
  // value waits in the set until detach_all drops the JoinHandle that
  // holds it, on this thread.
  rt_test::on_current_thread([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::JoinSet<LooksAtSet> set;
      std::size_t seen = 0;
      set.spawn([](rt::JoinSet<LooksAtSet>* in, std::size_t* counted) -> rt::Task<LooksAtSet> {
        co_return LooksAtSet(in, counted);
      }(&set, &seen));
      co_await settle();
      set.detach_all();  // a deadlock here: the value was destroyed with the set's lock held
      CHECK_MESSAGE(seen == 1, "the finished task's value was not destroyed by detach_all, or saw the set not yet empty");
    }());
  });
}
