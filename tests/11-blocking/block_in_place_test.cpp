// Chapter 11: block_in_place. On a multi-thread worker, the worker's core
// goes to a new thread for as long as the function blocks, so the other
// tasks, the one in the LIFO slot too, run meanwhile; afterwards the
// thread takes the core back if nobody took it, and otherwise stops being
// a worker when its task yields. The function runs with no budget and may
// block_on; a current-thread runtime refuses with Tokio's message.
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "answer.hpp"
#include "blocking.hpp"
#include "graded.hpp"
#include "parking.hpp"
#include "rt/rt.hpp"

namespace {

// Sets `flag` when it runs.
rt::Task<> set(ch11::Flag& flag) {
  flag.set();
  co_return;
}

rt::Task<std::thread::id> where_it_runs() { co_return std::this_thread::get_id(); }

// Runs `task` as a spawned task of `runtime` (on a worker, not on the
// thread that calls block_on) and waits for it.
template <class T>
T run_spawned(rt::Runtime& runtime, rt::Task<T> task) {
  return runtime.block_on([](rt::JoinHandle<T> handle) -> rt::Task<T> { co_return co_await handle; }(
      runtime.spawn(std::move(task))));
}

const std::string kMessage = "can call blocking only when running on the multi-threaded runtime";

}  // namespace

TEST_CASE("block_in_place on a one-worker runtime lets the task it just woke run meanwhile" * POINTS(3)) {
  rt::Runtime runtime = ch11::multi_thread(1);
  ch11::Flag woken_ran;
  run_spawned(runtime, [](ch11::Flag& ran) -> rt::Task<> {
    // Spawned on this worker: into its LIFO slot, to run next, here.
    rt::JoinHandle<void> woken = rt::spawn(set(ran));
    rt::block_in_place([&] { ran.wait(); });  // only another thread can run it now
    co_await woken;
  }(woken_ran));
  CHECK(woken_ran.is_set());
}

TEST_CASE("after block_in_place a thread whose core was taken up stops being a worker" * POINTS(2)) {
  rt::Runtime runtime = ch11::multi_thread(1);
  ch11::Flag woken_ran;
  auto [here, there] = run_spawned(runtime, [](ch11::Flag& ran) -> rt::Task<std::pair<std::thread::id, std::thread::id>> {
    rt::JoinHandle<void> woken = rt::spawn(set(ran));
    // Returns once the task above ran: the new thread has the core.
    rt::block_in_place([&] { ran.wait(); });
    std::thread::id this_thread = std::this_thread::get_id();
    // Spawned from a thread that is no worker: the worker (the new
    // thread) runs it, not this one.
    std::thread::id its_thread = co_await rt::spawn(where_it_runs());
    co_await woken;
    co_return std::pair{this_thread, its_thread};
  }(woken_ran));
  CHECK(here != there);
}

TEST_CASE("a core that no thread took up while the function blocked is taken back by its thread" * POINTS(2)) {
  // One worker and one blocking thread, kept busy: the thread that would
  // take the core up cannot start.
  rt::Runtime runtime = ch11::multi_thread(1, {.max_blocking = 1});
  ch11::Flag busy;
  ch11::Flag release;
  rt::JoinHandle<void> job = runtime.spawn_blocking([&] {
    busy.set();
    release.wait();
  });
  busy.wait();
  std::atomic<std::size_t> waiting{0};
  auto [here, there] = run_spawned(runtime, [](rt::Runtime& runtime, std::atomic<std::size_t>& waiting)
                                                -> rt::Task<std::pair<std::thread::id, std::thread::id>> {
    rt::block_in_place([&] { waiting = runtime.metrics().blocking_queue_depth(); });
    std::thread::id this_thread = std::this_thread::get_id();
    // This thread is the worker again: what it spawns runs here, next.
    std::thread::id its_thread = co_await rt::spawn(where_it_runs());
    co_return std::pair{this_thread, its_thread};
  }(runtime, waiting));
  release.set();
  runtime.block_on([](rt::JoinHandle<void>& job) -> rt::Task<> { co_await job; }(job));
  CHECK(waiting.load() == 1);  // the job that would have taken the core up
  CHECK(here == there);
}

TEST_CASE("block_in_place moves the LIFO slot's task where another worker steals it and wakes that worker" * POINTS(3)) {
  // Two workers and no thread to take the core up: only the other worker
  // can run the task, and only if it is told.
  rt::Runtime runtime = ch11::multi_thread(2, {.max_blocking = 1});
  ch11::Flag busy;
  ch11::Flag release;
  rt::JoinHandle<void> job = runtime.spawn_blocking([&] {
    busy.set();
    release.wait();
  });
  busy.wait();
  ch11::Flag woken_ran;
  run_spawned(runtime, [](rt::Runtime& runtime, ch11::Flag& ran) -> rt::Task<> {
    rt_test::wait_until_idle(runtime.metrics(), 1);  // the other worker sleeps
    rt::JoinHandle<void> woken = rt::spawn(set(ran));
    rt::block_in_place([&] { ran.wait(); });
    co_await woken;
  }(runtime, woken_ran));
  release.set();
  runtime.block_on([](rt::JoinHandle<void>& job) -> rt::Task<> { co_await job; }(job));
  CHECK(woken_ran.is_set());
}

TEST_CASE("block_in_place hands a task that yielded on its worker to another worker and wakes it" * POINTS(2)) {
  // As above, no thread can take the core up; the task to hand over is
  // one that yielded, not one in the slot.
  rt::Runtime runtime = ch11::multi_thread(2, {.max_blocking = 1});
  ch11::Flag busy;
  ch11::Flag release;
  rt::JoinHandle<void> job = runtime.spawn_blocking([&] {
    busy.set();
    release.wait();
  });
  busy.wait();
  ch11::Flag yielder_done;
  run_spawned(runtime, [](rt::Runtime& runtime, ch11::Flag& done) -> rt::Task<> {
    rt_test::wait_until_idle(runtime.metrics(), 1);  // the other worker sleeps
    auto [tx, rx] = rt::oneshot::channel<int>();
    // Into this worker's slot: it runs as soon as this task waits.
    rt::JoinHandle<void> yielder = rt::spawn([](rt::oneshot::Sender<int> tx, ch11::Flag& done) -> rt::Task<> {
      (void)tx.send(1);         // this task goes into the slot, to run next
      co_await rt::yield_now();  // and this one waits aside, on this worker
      done.set();
    }(std::move(tx), done));
    co_await rx;
    rt::block_in_place([&] { done.wait(); });  // only another worker can finish it
    co_await yielder;
  }(runtime, yielder_done));
  release.set();
  runtime.block_on([](rt::JoinHandle<void>& job) -> rt::Task<> { co_await job; }(job));
  CHECK(yielder_done.is_set());
}

TEST_CASE("block_in_place runs the function with no budget and gives the task its budget back" * POINTS(2)) {
  rt::Runtime runtime = ch11::multi_thread(2);
  auto spend_then_block = []() -> rt::Task<std::pair<bool, bool>> {
    while (rt::coop::has_budget_remaining()) co_await rt::coop::consume_budget();
    bool inside = rt::block_in_place([] { return rt::coop::has_budget_remaining(); });
    co_return std::pair{inside, rt::coop::has_budget_remaining()};
  };
  {
    INFO("in a task on a worker");
    auto [inside, after] = run_spawned(runtime, spend_then_block());
    CHECK(inside);
    CHECK_FALSE(after);
  }
  {
    INFO("in block_on's own future");
    auto [inside, after] = runtime.block_on(spend_then_block());
    CHECK(inside);
    CHECK_FALSE(after);
  }
}

TEST_CASE("inside block_in_place the function may block_on the runtime" * POINTS(1)) {
  rt::Runtime runtime = ch11::multi_thread(2);
  int value = run_spawned(runtime, []() -> rt::Task<int> {
    co_return rt::block_in_place([] { return rt::Handle::current().block_on(rt_test::answer()); });
  }());
  CHECK(value == 42);
}

TEST_CASE("block_in_place on a current-thread runtime throws Tokio's message" * POINTS(1)) {
  rt::Runtime runtime = ch11::current_thread();
  auto try_it = []() -> rt::Task<std::string> {
    try {
      rt::block_in_place([] {});
    } catch (const std::logic_error& error) {
      co_return error.what();
    }
    co_return "no exception";
  };
  CHECK(runtime.block_on(try_it()) == kMessage);
  CHECK(run_spawned(runtime, try_it()) == kMessage);
}

TEST_CASE("outside a worker block_in_place just calls the function" * POINTS(1)) {
  CHECK(rt::block_in_place([] { return 5; }) == 5);
  {
    INFO("in a blocking job of a current-thread runtime");
    rt::Runtime runtime = ch11::current_thread();
    int value = runtime.block_on(
        []() -> rt::Task<int> { co_return co_await rt::spawn_blocking([] { return rt::block_in_place([] { return 6; }); }); }());
    CHECK(value == 6);
  }
  {
    INFO("in block_on's own future on a multi-thread runtime");
    rt::Runtime runtime = ch11::multi_thread(1);
    CHECK(runtime.block_on([]() -> rt::Task<int> { co_return rt::block_in_place([] { return 7; }); }()) == 7);
  }
}
