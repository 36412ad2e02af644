// The checker's own tests: the classic litmus shapes. Each outcome the C++
// memory model allows must be found (the body's check fails in some
// execution), and each it forbids must never appear in any execution.
// Outcomes from ../shared facts: C++ [intro.races], [atomics.order]; loom's
// tests/litmus.rs. Known gaps (outcomes allowed but never produced, as in
// loom): load buffering and 2+2W, which need a store to take effect before
// an earlier load of its own thread.
#include <doctest/doctest.h>

#include <string>

#include "model/model.hpp"
#include "model/sync.hpp"

namespace {

using std::memory_order_acquire;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;

// Whether some execution fails the body's check.
bool found(const std::function<void()>& body, int bound = 3) {
  model::Options options;
  options.preemption_bound = bound;
  model::Report report = model::explore(body, options);
  INFO(report.describe());
  CHECK((!report.failed || report.kind == "check failed"));
  if (!report.failed) CHECK(report.complete);
  return report.failed;
}

// Store buffering: x=1; a=y || y=1; b=x. Outcome a=b=0.
bool store_buffering(std::memory_order store, std::memory_order load, bool fences) {
  return found([=] {
    model::atomic<int> x{0}, y{0};
    int a = -1, b = -1;
    model::thread t1([&] {
      x.store(1, store);
      if (fences) model::atomic_thread_fence(memory_order_seq_cst);
      a = y.load(load);
    });
    model::thread t2([&] {
      y.store(1, store);
      if (fences) model::atomic_thread_fence(memory_order_seq_cst);
      b = x.load(load);
    });
    t1.join();
    t2.join();
    model::check(!(a == 0 && b == 0), "a == 0 && b == 0");
  });
}

// Message passing: d=1; f=1 || r=f; s=d. Outcome r=1, s=0.
bool message_passing(std::memory_order store, std::memory_order load) {
  return found([=] {
    model::atomic<int> d{0}, f{0};
    int r = -1, s = -1;
    model::thread t1([&] {
      d.store(1, memory_order_relaxed);
      f.store(1, store);
    });
    model::thread t2([&] {
      r = f.load(load);
      s = d.load(memory_order_relaxed);
    });
    t1.join();
    t2.join();
    model::check(!(r == 1 && s == 0), "r == 1 && s == 0");
  });
}

}  // namespace

TEST_CASE("store buffering: allowed when relaxed or release/acquire, forbidden when seq_cst or fenced") {
  CHECK(store_buffering(memory_order_relaxed, memory_order_relaxed, false));
  CHECK(store_buffering(memory_order_release, memory_order_acquire, false));
  CHECK_FALSE(store_buffering(memory_order_seq_cst, memory_order_seq_cst, false));
  CHECK_FALSE(store_buffering(memory_order_relaxed, memory_order_relaxed, true));
}

TEST_CASE("message passing: allowed when relaxed, forbidden with release/acquire or seq_cst") {
  CHECK(message_passing(memory_order_relaxed, memory_order_relaxed));
  CHECK(message_passing(memory_order_release, memory_order_relaxed));
  CHECK(message_passing(memory_order_relaxed, memory_order_acquire));
  CHECK_FALSE(message_passing(memory_order_release, memory_order_acquire));
  CHECK_FALSE(message_passing(memory_order_seq_cst, memory_order_seq_cst));
}

TEST_CASE("message passing with fences: a release fence before a relaxed flag, an acquire fence after") {
  CHECK_FALSE(found([] {
    model::atomic<int> d{0}, f{0};
    int r = -1, s = -1;
    model::thread t1([&] {
      d.store(1, memory_order_relaxed);
      model::atomic_thread_fence(memory_order_release);
      f.store(1, memory_order_relaxed);
    });
    model::thread t2([&] {
      r = f.load(memory_order_relaxed);
      model::atomic_thread_fence(memory_order_acquire);
      s = d.load(memory_order_relaxed);
    });
    t1.join();
    t2.join();
    model::check(!(r == 1 && s == 0), "r == 1 && s == 0");
  }));
}

TEST_CASE("message passing through a plain cell and a relaxed flag is a data race") {
  model::Report report = model::explore([] {
    model::UnsafeCell<int> d;
    model::atomic<int> f{0};
    model::thread t1([&] {
      d.write(1);
      f.store(1, memory_order_relaxed);
    });
    model::thread t2([&] {
      if (f.load(memory_order_relaxed) == 1) (void)d.read();
    });
    t1.join();
    t2.join();
  });
  INFO(report.describe());
  CHECK(report.failed);
  CHECK(report.kind == "data race");
}

TEST_CASE("the same cell handed over with release and acquire is no race") {
  model::Report report = model::explore([] {
    model::UnsafeCell<int> d;
    model::atomic<int> f{0};
    model::thread t1([&] {
      d.write(1);
      f.store(1, memory_order_release);
    });
    model::thread t2([&] {
      if (f.load(memory_order_acquire) == 1) model::check(d.read() == 1, "d == 1");
    });
    t1.join();
    t2.join();
  });
  INFO(report.describe());
  CHECK_FALSE(report.failed);
  CHECK(report.complete);
}

TEST_CASE("coherence: no thread reads a location's values out of their order") {
  // CoRR: x=1 || a=x; b=x: never a=1, b=0.
  CHECK_FALSE(found([] {
    model::atomic<int> x{0};
    int a = -1, b = -1;
    model::thread t1([&] { x.store(1, memory_order_relaxed); });
    model::thread t2([&] {
      a = x.load(memory_order_relaxed);
      b = x.load(memory_order_relaxed);
    });
    t1.join();
    t2.join();
    model::check(!(a == 1 && b == 0), "a == 1 && b == 0");
  }));
  // CoWR: x=1; a=x || x=2: never a=0.
  CHECK_FALSE(found([] {
    model::atomic<int> x{0};
    int a = -1;
    model::thread t1([&] {
      x.store(1, memory_order_relaxed);
      a = x.load(memory_order_relaxed);
    });
    model::thread t2([&] { x.store(2, memory_order_relaxed); });
    t1.join();
    t2.join();
    model::check(a != 0, "a == 0");
  }));
  // CoWW then an observer: x=1; x=2 || observer after a join: never 1.
  CHECK_FALSE(found([] {
    model::atomic<int> x{0};
    model::thread t1([&] {
      x.store(1, memory_order_relaxed);
      x.store(2, memory_order_relaxed);
    });
    t1.join();
    model::check(x.load(memory_order_relaxed) == 2, "x ends 1");
  }));
}

TEST_CASE("a relaxed load may read an old value: two loads of a flag set once may disagree") {
  CHECK(found([] {
    model::atomic<int> x{0};
    int a = -1;
    model::thread t1([&] { x.store(1, memory_order_relaxed); });
    model::thread t2([&] { a = x.load(memory_order_relaxed); });
    t1.join();
    t2.join();
    model::check(a == 1, "a == 0: t2 read the first value");
  }));
}

TEST_CASE("IRIW: readers disagree on the order of two writes unless all is seq_cst") {
  auto iriw = [](std::memory_order order) {
    return found([=] {
      model::atomic<int> x{0}, y{0};
      int a = -1, b = -1, c = -1, d = -1;
      model::thread w1([&] { x.store(1, order == memory_order_acquire ? memory_order_release : order); });
      model::thread w2([&] { y.store(1, order == memory_order_acquire ? memory_order_release : order); });
      model::thread r1([&] {
        a = x.load(order);
        b = y.load(order);
      });
      model::thread r2([&] {
        c = y.load(order);
        d = x.load(order);
      });
      w1.join();
      w2.join();
      r1.join();
      r2.join();
      model::check(!(a == 1 && b == 0 && c == 1 && d == 0), "1, 0, 1, 0");
    }, 1);  // five threads: at a bound of 3 the search takes minutes
  };
  CHECK(iriw(memory_order_acquire));
  CHECK_FALSE(iriw(memory_order_seq_cst));
}

TEST_CASE("the racy increment loses an update; fetch_add never does") {
  CHECK(found([] {
    model::atomic<int> x{0};
    auto increment = [&] {
      int t = x.load(memory_order_relaxed);
      x.store(t + 1, memory_order_relaxed);
    };
    model::thread t1(increment);
    model::thread t2(increment);
    t1.join();
    t2.join();
    model::check(x.load() == 2, "x == 1: an increment was lost");
  }));
  CHECK_FALSE(found([] {
    model::atomic<int> x{0};
    auto increment = [&] { x.fetch_add(1, memory_order_relaxed); };
    model::thread t1(increment);
    model::thread t2(increment);
    t1.join();
    t2.join();
    model::check(x.load() == 2, "x == 1: an increment was lost");
  }));
}

TEST_CASE("a relaxed read-modify-write continues a release sequence") {
  CHECK_FALSE(found([] {
    model::UnsafeCell<int> d;
    model::atomic<int> f{0};
    model::thread t1([&] {
      d.write(1);
      f.store(1, memory_order_release);
    });
    model::thread t2([&] {
      int expected = 1;
      f.compare_exchange_strong(expected, 2, memory_order_relaxed, memory_order_relaxed);
    });
    model::thread t3([&] {
      if (f.load(memory_order_acquire) == 2) model::check(d.read() == 1, "d == 1");
    });
    t1.join();
    t2.join();
    t3.join();
  }));
}

TEST_CASE("a flag set without the mutex before notify_one can be lost: a deadlock") {
  auto lost_wakeup = [](bool under_mutex) {
    return model::explore([=] {
      model::mutex mutex;
      model::condition_variable condvar;
      model::atomic<bool> flag{false};
      model::thread waiter([&] {
        std::unique_lock<model::mutex> lock(mutex);
        while (!flag.load()) condvar.wait(lock);
      });
      if (under_mutex) {
        std::lock_guard<model::mutex> lock(mutex);
        flag.store(true);
      } else {
        flag.store(true);
      }
      condvar.notify_one();
      waiter.join();
    });
  };
  model::Report lost = lost_wakeup(false);
  INFO(lost.describe());
  CHECK(lost.failed);
  CHECK(lost.kind == "deadlock");
  CHECK(lost.message.find("waits on condvar#") != std::string::npos);
  model::Report kept = lost_wakeup(true);
  INFO(kept.describe());
  CHECK_FALSE(kept.failed);
  CHECK(kept.complete);
}

TEST_CASE("an object made in a body and never freed is a leak") {
  model::Report report = model::explore([] { new model::atomic<int>(3); });
  INFO(report.describe());
  CHECK(report.failed);
  CHECK(report.kind == "leak");
}

TEST_CASE("a detached thread may still run when the body looks; a joined one never does") {
  // The check a shutdown that must join its threads is held to.
  auto body = [](bool join) {
    return [join] {
      model::atomic<int> done{0};
      model::thread t([&done] { done.store(1, memory_order_relaxed); });
      if (join) {
        t.join();
      } else {
        t.detach();
        model::yield_now();  // the thread may run now, or later
      }
      model::check(model::threads_running() == 1, "a thread of the body still runs");
      if (!join) {
        while (done.load(memory_order_relaxed) == 0) model::yield_now();  // it ends before the atomic goes
      }
    };
  };
  CHECK(found(body(false)));
  CHECK_FALSE(found(body(true)));
}

TEST_CASE("a failure's replay string runs exactly that execution again") {
  auto body = [] {
    model::atomic<int> x{0};
    auto increment = [&] {
      int t = x.load(memory_order_relaxed);
      x.store(t + 1, memory_order_relaxed);
    };
    model::thread t1(increment);
    model::thread t2(increment);
    t1.join();
    t2.join();
    model::check(x.load() == 2, "x == 1");
  };
  model::Report first = model::explore(body);
  REQUIRE(first.failed);
  model::Options replay;
  replay.replay = first.replay;
  model::Report again = model::explore(body, replay);
  CHECK(again.executions == 1);
  CHECK(again.failed);
  CHECK(again.schedule == first.schedule);
}

TEST_CASE("a random search (PCT) finds the racy increment too") {
  model::Options options;
  options.mode = model::Options::Mode::random;
  options.pct_runs = 500;
  model::Report report = model::explore([] {
    model::atomic<int> x{0};
    auto increment = [&] {
      int t = x.load(memory_order_relaxed);
      x.store(t + 1, memory_order_relaxed);
    };
    model::thread t1(increment);
    model::thread t2(increment);
    t1.join();
    t2.join();
    model::check(x.load() == 2, "x == 1");
  }, options);
  CHECK(report.failed);
}
