// Chapter 03's experiment: how fast two tasks can talk over channels, and
// what a std::mutex held across co_await does to a runtime's thread, beside
// the async rt::Mutex.
//
//   build/experiments/03-sync [--rounds N] [--budget-ms N]
//
// The stall is shown safely. Two threads each drive a current-thread
// runtime. On the first, task A takes the lock and, still holding it, awaits
// a reply from task C on the second. On the second, task B wants the lock
// too. With a blocking mutex, B blocks its thread, so C (on that thread)
// cannot send the reply that A needs to unlock: a deadlock, which
// try_lock_for bounds to --budget-ms here. With rt::Mutex, B waits without
// blocking anything, C runs, A unlocks, and the lock is handed to B.
// A heartbeat task on the second thread records its worst gap between
// polls: the stall every other task on that thread would see.
#include <atomic>
#include <chrono>
#include <fmt/core.h>
#include <latch>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---------------------------------------------------------------- ping-pong

rt::Task<> echo(rt::mpsc::Receiver<int> rx, rt::mpsc::Sender<int> tx) {
  while (std::optional<int> n = co_await rx.recv()) co_await tx.send(*n);
}

rt::Task<double> ping_pong(int rounds) {
  auto [ping_tx, ping_rx] = rt::mpsc::channel<int>(1);
  auto [pong_tx, pong_rx] = rt::mpsc::channel<int>(1);
  auto peer = rt::spawn(echo(std::move(ping_rx), std::move(pong_tx)));
  auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    co_await ping_tx.send(i);
    std::optional<int> back = co_await pong_rx.recv();
    if (back != i) throw std::logic_error("ping-pong lost a message");
  }
  double ms = ms_since(start);
  { auto gone = std::move(ping_tx); }
  co_await peer;
  co_return ms;
}

// -------------------------------------------------------------------- stall

struct Stall {
  bool b_got_lock = false;
  double b_waited_ms = 0;      // from B's lock call to its return
  double worst_gap_ms = 0;     // the heartbeat's worst gap, on B's thread
  double a_held_ms = 0;        // how long A held the lock
};

rt::Task<> heartbeat(std::atomic<bool>& stop, double& worst_gap_ms) {
  auto last = Clock::now();
  while (!stop.load(std::memory_order_relaxed)) {
    co_await rt::yield_now();
    double gap = ms_since(last);
    if (gap > worst_gap_ms) worst_gap_ms = gap;
    last = Clock::now();
  }
}

// The second thread's runtime: heartbeat, B (wants the lock), C (sends the
// reply A waits for). `lock_b` is B's attempt: it returns whether B got it.
template <class LockB>
void second_thread(LockB lock_b, rt::oneshot::Sender<int> reply, Stall& result) {
  rt::Runtime runtime;
  runtime.block_on([&]() -> rt::Task<> {
    std::atomic<bool> stop{false};
    auto beat = rt::spawn(heartbeat(stop, result.worst_gap_ms));
    co_await rt::yield_now();  // the heartbeat is ticking
    auto b = rt::spawn([&]() -> rt::Task<> {
      auto start = Clock::now();
      result.b_got_lock = co_await lock_b();
      result.b_waited_ms = ms_since(start);
    });
    auto c = rt::spawn([&]() -> rt::Task<> {
      co_await rt::yield_now();
      (void)reply.send(1);
    });
    co_await b;
    co_await c;
    stop = true;
    co_await beat;
  }());
}

// A, on the first thread: lock, then await the reply while holding it.
template <class Lock>
rt::Task<> hold_across_await(Lock& lock_a, rt::oneshot::Receiver<int> reply, std::latch& a_holds,
                             Stall& result) {
  auto guard = co_await lock_a();
  auto start = Clock::now();
  a_holds.count_down();
  int answer = co_await reply;  // the lock is held across this co_await
  (void)answer;
  result.a_held_ms = ms_since(start);
}

template <class Lock>
void first_thread(Lock lock_a, rt::oneshot::Receiver<int> reply, std::latch& a_holds,
                  Stall& result) {
  rt::Runtime runtime;
  runtime.block_on(hold_across_await(lock_a, std::move(reply), a_holds, result));
}

// A leaf-free "lock" for the blocking mutex, so that both variants share
// the code above: it blocks the thread right there, in the task's poll.
struct BlockingLock {
  std::unique_lock<std::timed_mutex> lock;
};

Stall stall_with_std_mutex(std::chrono::milliseconds budget) {
  std::timed_mutex mutex;
  auto channel = rt::oneshot::channel<int>();
  auto& tx = channel.first;
  auto& rx = channel.second;
  std::latch a_holds(1);
  Stall result;
  {
    std::jthread first([&] {
      first_thread(
          [&]() -> rt::Task<BlockingLock> { co_return BlockingLock{std::unique_lock(mutex)}; },
          std::move(rx), a_holds, result);
    });
    a_holds.wait();
    std::jthread second([&, tx = std::move(tx)]() mutable {
      second_thread(
          [&]() -> rt::Task<bool> {
            // A real lock() here would never return. try_lock_for blocks the
            // thread just as well, but gives up after the budget.
            bool got = mutex.try_lock_for(budget);
            if (got) mutex.unlock();
            co_return got;
          },
          std::move(tx), result);
    });
  }  // joins both threads
  return result;
}

Stall stall_with_async_mutex() {
  rt::Mutex<int> mutex(0);
  auto channel = rt::oneshot::channel<int>();
  auto& tx = channel.first;
  auto& rx = channel.second;
  std::latch a_holds(1);
  Stall result;
  {
    std::jthread first([&] {
      first_thread([&]() -> rt::Task<rt::MutexGuard<int>> { co_return co_await mutex.lock(); },
                   std::move(rx), a_holds, result);
    });
    a_holds.wait();
    std::jthread second([&, tx = std::move(tx)]() mutable {
      second_thread(
          [&]() -> rt::Task<bool> {
            auto guard = co_await mutex.lock();  // waits; the thread runs on
            co_return true;
          },
          std::move(tx), result);
    });
  }  // joins both threads
  return result;
}

void print_stall(const char* name, const Stall& s) {
  std::string outcome = fmt::format("{} after {:.2f} ms", s.b_got_lock ? "got it" : "gave up",
                                    s.b_waited_ms);
  fmt::print("  {:<27} {:<25} {:>17.2f} ms {:>13.2f} ms\n", name, outcome, s.worst_gap_ms,
             s.a_held_ms);
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 03: channel round trips, and a std::mutex held across co_await"};
  int rounds = 200'000;
  int budget_ms = 200;
  cli.positive("--rounds", rounds, "ping-pong round trips");
  cli.positive("--budget-ms", budget_ms, "how long B's blocking try_lock_for may wait");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

#ifdef EXPERIMENT_RUNTIME
  fmt::print("runtime: {}\n\n", EXPERIMENT_RUNTIME);
#endif
  rt::Runtime runtime;
  double ms = runtime.block_on(ping_pong(rounds));
  fmt::print("ping-pong over two capacity-1 channels, current-thread runtime\n");
  fmt::print("  {} round trips in {:.1f} ms: {:.0f} round trips/s, {:.0f} ns per round trip\n\n",
             rounds, ms, rounds / (ms / 1000), ms * 1e6 / rounds);

  fmt::print("a lock held across co_await: A holds it while it awaits a reply from C, on B's thread\n");
  fmt::print("  {:<27} {:<25} {:>20} {:>16}\n", "", "B's lock call", "stall on B's thread",
             "A held the lock");
  Stall blocking = stall_with_std_mutex(std::chrono::milliseconds(budget_ms));
  print_stall("std::timed_mutex (blocks)", blocking);
  Stall async = stall_with_async_mutex();
  print_stall("rt::Mutex (awaits)", async);
  if (!blocking.b_got_lock)
    fmt::print("  (B's blocking lock gave up after --budget-ms={}; a plain lock() would never "
               "return: deadlock)\n", budget_ms);
  return 0;
}
