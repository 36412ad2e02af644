// The same workloads on Asio: co_spawn for spawn, a post for yield_now, and
// experimental::concurrent_channel (capacity 1) for the channels. Asio has no
// join handle: where Tokio joins, these count down a Countdown instead.
// co_spawn called from a thread running the io_context starts the coroutine
// right there (Asio dispatches it), where a Tokio spawn queues the task:
// that is how Asio is used, so it is what is measured.
#pragma once

#include <asio.hpp>
#include <asio/experimental/concurrent_channel.hpp>
#include <atomic>
#include <memory>
#include <stdexcept>

#include "../workloads.hpp"
#include "pool.hpp"

namespace bench::asio_side {

using asio::awaitable;
using asio::use_awaitable;
using Channel = asio::experimental::concurrent_channel<void(asio::error_code, long)>;

// ------------------------------------------------------------ spawn_many_*

inline awaitable<void> count_down_task(Countdown& done) {
  done.count_down();
  co_return;
}

inline awaitable<void> spawn_from_inside(long n, Countdown& done) {
  auto executor = co_await asio::this_coro::executor;
  for (long i = 0; i < n; ++i) asio::co_spawn(executor, count_down_task(done), asio::detached);
}

// Tokio's iter(): the task spawns its successor and ends, forever. Asio's
// co_spawn, called on the io_context's own thread, starts the new coroutine
// inline (a dispatch), which here would recurse until the stack overflows:
// so the successor is spawned from a posted handler, queued like a Tokio spawn.
inline awaitable<void> spawn_forever(const std::atomic<bool>& stop) {
  // relaxed: a request to stop, publishing nothing else.
  if (stop.load(std::memory_order_relaxed)) co_return;
  auto executor = co_await asio::this_coro::executor;
  asio::post(executor, [executor, &stop] { asio::co_spawn(executor, spawn_forever(stop), asio::detached); });
}

class SpawnMany : public Workload {
 public:
  enum class From { inside, outside_idle, outside_busy };
  SpawnMany(Flavour flavour, int workers, From from) : flavour_(flavour), from_(from), pool_(flavour, workers) {
    if (from == From::outside_busy) asio::co_spawn(pool_.context(), spawn_forever(stop_), asio::detached);
  }
  ~SpawnMany() override { stop_.store(true, std::memory_order_relaxed); }

  void iteration() override {
    long n = spawn_count(flavour_);
    done_.arm(n);
    if (from_ == From::inside) {
      asio::co_spawn(pool_.context(), spawn_from_inside(n, done_), asio::detached);
    } else {
      for (long i = 0; i < n; ++i) asio::co_spawn(pool_.context(), count_down_task(done_), asio::detached);
    }
    pool_.drive_until(done_);
  }

 private:
  Flavour flavour_;
  From from_;
  std::atomic<bool> stop_{false};  // declared before pool_, so both outlive it
  Countdown done_;
  Pool pool_;
};

// -------------------------------------------------------------- yield_many

inline awaitable<void> yield_repeatedly(long times, Countdown& done) {
  auto executor = co_await asio::this_coro::executor;
  for (long i = 0; i < times; ++i) co_await asio::post(executor, use_awaitable);
  done.count_down();
}

class YieldMany : public Workload {
 public:
  YieldMany(Flavour flavour, int workers) : pool_(flavour, workers) {}
  void iteration() override {
    done_.arm(yield_tasks);
    for (long i = 0; i < yield_tasks; ++i) {
      asio::co_spawn(pool_.context(), yield_repeatedly(yields_per_task, done_), asio::detached);
    }
    pool_.drive_until(done_);
  }

 private:
  Countdown done_;
  Pool pool_;
};

// --------------------------------------------------------------- ping_pong

inline awaitable<void> ping(Channel& tx, Channel& rx, long round_trips, Countdown& done) {
  for (long i = 0; i < round_trips; ++i) {
    co_await tx.async_send(asio::error_code{}, i, use_awaitable);
    long back = co_await rx.async_receive(use_awaitable);
    if (back != i) throw std::logic_error("ping_pong lost a message");
  }
  done.count_down();
}

inline awaitable<void> echo(Channel& rx, Channel& tx, long round_trips, Countdown& done) {
  for (long i = 0; i < round_trips; ++i) {
    long n = co_await rx.async_receive(use_awaitable);
    co_await tx.async_send(asio::error_code{}, n, use_awaitable);
  }
  done.count_down();
}

class PingPong : public Workload {
 public:
  PingPong(Flavour flavour, int workers)
      : pool_(flavour, workers), ping_(pool_.context(), 1), pong_(pool_.context(), 1) {}
  void iteration() override {
    done_.arm(2);
    asio::co_spawn(pool_.context(), echo(ping_, pong_, ping_pong_round_trips, done_), asio::detached);
    asio::co_spawn(pool_.context(), ping(ping_, pong_, ping_pong_round_trips, done_), asio::detached);
    pool_.drive_until(done_);
  }

 private:
  Countdown done_;
  Pool pool_;
  Channel ping_, pong_;  // destroyed before the pool
};

// ------------------------------------------------------ ping_pong_upstream

// A oneshot is a channel of capacity 1, used once. (A value-less channel,
// void(error_code), does not compile with Asio 1.22: it carries a long.)
inline awaitable<void> answer(std::shared_ptr<Channel> question, std::shared_ptr<Channel> reply) {
  (void)co_await question->async_receive(use_awaitable);
  reply->try_send(asio::error_code{}, 0L);
}

inline awaitable<void> ask(Countdown& done) {
  auto executor = co_await asio::this_coro::executor;
  auto question = std::make_shared<Channel>(executor, 1);
  auto reply = std::make_shared<Channel>(executor, 1);
  asio::co_spawn(executor, answer(question, reply), asio::detached);
  question->try_send(asio::error_code{}, 0L);
  (void)co_await reply->async_receive(use_awaitable);
  done.count_down();
}

inline awaitable<void> spawn_pairs(long pairs, Countdown& done) {
  auto executor = co_await asio::this_coro::executor;
  for (long i = 0; i < pairs; ++i) asio::co_spawn(executor, ask(done), asio::detached);
}

class PingPongUpstream : public Workload {
 public:
  PingPongUpstream(Flavour flavour, int workers) : pool_(flavour, workers) {}
  void iteration() override {
    done_.arm(upstream_pairs);
    asio::co_spawn(pool_.context(), spawn_pairs(upstream_pairs, done_), asio::detached);
    pool_.drive_until(done_);
  }

 private:
  Countdown done_;
  Pool pool_;
};

// ----------------------------------------------------------- chained_spawn

inline awaitable<void> spawn_chain(Countdown& done, long remaining) {
  if (remaining == 0) {
    done.count_down();
  } else {
    asio::co_spawn(co_await asio::this_coro::executor, spawn_chain(done, remaining - 1), asio::detached);
  }
}

class ChainedSpawn : public Workload {
 public:
  ChainedSpawn(Flavour flavour, int workers) : pool_(flavour, workers) {}
  void iteration() override {
    done_.arm(1);
    asio::co_spawn(pool_.context(), spawn_chain(done_, chain_length), asio::detached);
    pool_.drive_until(done_);
  }

 private:
  Countdown done_;
  Pool pool_;
};

}  // namespace bench::asio_side
