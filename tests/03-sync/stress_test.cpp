// Chapter 03: the primitives under load, and across threads. Each producer
// thread here drives its own runtime, so every wake-up that crosses threads
// goes through a waker.
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"

namespace {

constexpr int producers = 4;
constexpr int messages = 10'000;

// Keeps the first exception a thread threw, to rethrow on the test's thread:
// an exception must not escape a std::thread, and a failed assertion there
// should fail the test, not abort the process.
class ThreadErrors {
 public:
  template <class F>
  void run(F f) {
    try {
      f();
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
  }
  void rethrow() {
    std::lock_guard lock(mutex_);
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

struct Message {
  int producer;
  int seq;
};

rt::Task<> produce(rt::mpsc::Sender<Message> tx, int producer) {
  for (int i = 0; i < messages; ++i) co_await tx.send(Message{producer, i});
}

// Every message of every producer exactly once, and each producer's in order.
rt::Task<bool> consume_and_check(rt::mpsc::Receiver<Message>& rx) {
  std::vector<int> next(producers, 0);
  int total = 0;
  bool ok = true;
  while (std::optional<Message> m = co_await rx.recv()) {
    if (m->seq != next[m->producer]) ok = false;
    next[m->producer] = m->seq + 1;
    ++total;
  }
  for (int n : next) ok = ok && n == messages;
  co_return ok && total == producers * messages;
}

}  // namespace

TEST_CASE("4 producer tasks x 10000 messages through capacity 16: none lost or doubled and each in order" * POINTS(1)) {
  rt_test::on_each_runtime([&](rt::Runtime& runtime) {
    bool ok = runtime.block_on([]() -> rt::Task<bool> {
      auto [tx, rx] = rt::mpsc::channel<Message>(16);
      std::vector<rt::JoinHandle<void>> tasks;
      for (int p = 0; p < producers; ++p) tasks.push_back(rt::spawn(produce(tx, p)));
      { auto gone = std::move(tx); }
      bool checked = co_await consume_and_check(rx);
      for (auto& task : tasks) co_await task;
      co_return checked;
    }());
    CHECK(ok);
  });
}

TEST_CASE("4 producer threads x 10000 messages through capacity 16: cross-thread wake-ups" * POINTS(2)) {
  // Declared before the channel, so that a failing receiver closes the
  // channel (waking the producers with an error) before the threads join.
  ThreadErrors errors;
  std::vector<std::jthread> threads;
  auto [tx, rx] = rt::mpsc::channel<Message>(16);
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([tx = tx, p, &errors]() mutable {
      errors.run([&] {
        rt::Runtime runtime;  // each thread drives its own runtime
        runtime.block_on(produce(std::move(tx), p));
      });
    });
  }
  { auto gone = std::move(tx); }
  rt::Runtime runtime;
  bool ok = runtime.block_on(consume_and_check(rx));
  for (auto& thread : threads) thread.join();
  errors.rethrow();
  CHECK(ok);
}

TEST_CASE("ping-pong over two channels of capacity 1" * POINTS(1)) {
  constexpr int rounds = 10'000;
  rt::Runtime runtime;
  int last = runtime.block_on([]() -> rt::Task<int> {
    auto [ping_tx, ping_rx] = rt::mpsc::channel<int>(1);
    auto [pong_tx, pong_rx] = rt::mpsc::channel<int>(1);
    auto echo = rt::spawn([rx = std::move(ping_rx), tx = std::move(pong_tx)]() mutable -> rt::Task<> {
      while (std::optional<int> n = co_await rx.recv()) co_await tx.send(*n + 1);
    });
    int value = 0;
    for (int i = 0; i < rounds; ++i) {
      co_await ping_tx.send(value);
      std::optional<int> back = co_await pong_rx.recv();
      if (!back || *back != value + 1) co_return -1;
      value = *back;
    }
    { auto gone = std::move(ping_tx); }  // the echo task sees the close and ends
    co_await echo;
    co_return value;
  }());
  CHECK(last == rounds);
}

TEST_CASE("Mutex across threads with a runtime on each" * POINTS(1)) {
  constexpr int threads_count = 4;
  constexpr int per_thread = 2'000;
  rt::Mutex<long> counter(0);
  ThreadErrors errors;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < threads_count; ++t) {
      threads.emplace_back([&] {
        errors.run([&] {
          rt::Runtime runtime;
          runtime.block_on([&]() -> rt::Task<> {
            for (int i = 0; i < per_thread; ++i) {
              auto guard = co_await counter.lock();
              long seen = *guard;
              if (i % 8 == 0) co_await rt::yield_now();  // held across co_await
              *guard = seen + 1;
            }
          }());
        });
      });
    }
  }  // joins
  errors.rethrow();
  auto guard = counter.try_lock();
  REQUIRE(guard.has_value());
  CHECK(**guard == long{threads_count} * per_thread);
}
