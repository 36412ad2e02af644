// spawn_blocking, on the course's runtimes from chapter 11 on (the blocking
// pool: rt::spawn_blocking).
//
// Tokio's benches/spawn_blocking.rs: each of `tasks` tasks (one on the
// current-thread flavour, one per worker on the multi-thread one) starts a
// batch of 16 rt::spawn_blocking jobs, each an empty function that returns
// black_box(0), then awaits every JoinHandle of the batch, then starts the
// next; 200 batches per iteration in all (bench/workloads.hpp). So a unit,
// one job, is: its task allocated and queued on the pool, an idle pool
// thread woken to poll it, its output stored, and the awaiting task woken
// (when it is already waiting on that handle) and resumed with the value.
// The pool's threads stay (a keep-alive of 10 s), so after the warm-up no
// iteration starts one unless a batch finds fewer idle than it needs.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "../workloads.hpp"
#include "runtime.hpp"
#include "timers.hpp"

namespace bench::course {

#ifdef RT_HAS_BLOCKING

inline rt::Task<> blocking_batches(long batches) {
  std::vector<rt::JoinHandle<int>> batch;
  batch.reserve(blocking_batch_size);
  for (long b = 0; b < batches; ++b) {
    for (long j = 0; j < blocking_batch_size; ++j) {
      batch.push_back(rt::spawn_blocking([] { return black_box(0); }));
    }
    // Tokio's JoinSet::join_all: every job of the batch, before the next.
    for (auto& handle : batch) {
      if (co_await handle != 0) throw std::logic_error("a blocking job returned another value");
    }
    batch.clear();
  }
}

class SpawnBlocking : public Workload {
 public:
  // Tokio's benchmark builds its runtime with enable_all(), as
  // make_timer_runtime does.
  SpawnBlocking(Flavour flavour, int workers)
      : tasks_(blocking_tasks(flavour, workers)), runtime_(make_timer_runtime(flavour, workers)) {}

  void iteration() override {
    std::vector<rt::JoinHandle<void>> handles;
    for (long t = 0; t < tasks_; ++t) {
      handles.push_back(runtime_->spawn(blocking_batches(blocking_batches_of(t, tasks_))));
    }
    runtime_->block_on(join_all(handles));
    if (runtime_->metrics().blocking_queue_depth() != 0) {
      throw std::logic_error("a blocking job is still queued after its task awaited it");
    }
  }

 private:
  long tasks_;
  std::unique_ptr<rt::Runtime> runtime_;
};

#endif

}  // namespace bench::course
