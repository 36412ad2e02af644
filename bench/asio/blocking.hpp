// spawn_blocking on Asio: what a C++ user writes today for work that
// blocks, an asio::thread_pool beside the io_context that runs the
// coroutines (bench/asio/pool.hpp), and a completion back to the
// coroutine that awaits the work.
//
// Tokio's benches/spawn_blocking.rs, the same shape as on the course's
// runtimes: each of `tasks` coroutines (one on the current-thread flavour,
// one per worker on the multi-thread one) posts a batch of 16 jobs to the
// thread pool, each an empty function that returns black_box(0), and
// awaits the whole batch before it posts the next; 200 batches per
// iteration in all (bench/workloads.hpp). Asio has no join handle: the
// batch is one asynchronous operation (async_initiate, use_awaitable),
// whose jobs count down a shared count on the pool's threads; the last
// one dispatches the coroutine's completion handler to the coroutine's own
// executor, which resumes it on the io_context, as the last JoinHandle's
// wake-up does on the course's runtimes (Tokio's JoinSet::join_all).
//
// The thread pool has a thread per job a batch can have in flight (16 per
// coroutine): Tokio's pool starts a thread whenever a job finds none idle,
// up to 512, so that a job that blocks for real never waits for another;
// a fixed asio::thread_pool is given as many as the workload can use.
#pragma once

#include <asio.hpp>
#include <atomic>
#include <memory>
#include <utility>

#include "../workloads.hpp"
#include "pool.hpp"

namespace bench::asio_side {

inline long blocking_pool_threads(Flavour flavour, int workers) {
  return blocking_tasks(flavour, workers) * blocking_batch_size;
}

// Runs `size` jobs on `pool`; completes, on the token's executor, once
// every one has run.
template <class Token>
auto run_batch(asio::thread_pool& pool, long size, Token&& token) {
  return asio::async_initiate<Token, void()>(
      [&pool, size](auto handler) {
        using Handler = decltype(handler);
        struct Batch {
          Batch(long count, Handler h) : remaining(count), handler(std::move(h)) {}
          std::atomic<long> remaining;
          Handler handler;
        };
        Batch* batch = new Batch(size, std::move(handler));
        for (long i = 0; i < size; ++i) {
          asio::post(pool, [batch] {
            (void)black_box(0);
            // acq_rel: the last job sees every other job's end, and the
            // coroutine, resumed after it, sees them all.
            if (batch->remaining.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
            std::unique_ptr<Batch> last(batch);
            asio::dispatch(std::move(last->handler));  // to the coroutine's executor
          });
        }
      },
      token);
}

inline asio::awaitable<void> blocking_batches(asio::thread_pool& blocking, long batches, Countdown& done) {
  for (long b = 0; b < batches; ++b) co_await run_batch(blocking, blocking_batch_size, asio::use_awaitable);
  done.count_down();
}

class SpawnBlocking : public Workload {
 public:
  SpawnBlocking(Flavour flavour, int workers)
      : tasks_(blocking_tasks(flavour, workers)),
        pool_(flavour, workers),
        blocking_(static_cast<std::size_t>(blocking_pool_threads(flavour, workers))) {}

  void iteration() override {
    done_.arm(tasks_);
    for (long t = 0; t < tasks_; ++t) {
      asio::co_spawn(pool_.context(), blocking_batches(blocking_, blocking_batches_of(t, tasks_), done_),
                     asio::detached);
    }
    pool_.drive_until(done_);
  }

 private:
  long tasks_;
  Countdown done_;
  Pool pool_;
  asio::thread_pool blocking_;  // stopped and joined first, before pool_
};

}  // namespace bench::asio_side
