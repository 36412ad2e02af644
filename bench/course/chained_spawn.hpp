// chained_spawn: each task spawns the next, 1,000 deep; the last one says it
// is done. Spawn latency, one task at a time: nothing to run in parallel.
// Tokio's chained_spawn.
#pragma once

#include <memory>

#include "../workloads.hpp"
#include "latch.hpp"
#include "runtime.hpp"

namespace bench::course {

inline rt::Task<> spawn_chain(Latch& done, long remaining) {
  if (remaining == 0) {
    done.count_down();
  } else {
    (void)rt::spawn(spawn_chain(done, remaining - 1));  // detached
  }
  co_return;
}

inline rt::Task<> start_chain(Latch& done, long length) {
  (void)rt::spawn(spawn_chain(done, length));
  co_await done.wait();
}

class ChainedSpawn : public Workload {
 public:
  ChainedSpawn(Flavour flavour, int workers) : runtime_(make_runtime(flavour, workers)) {}
  void iteration() override {
    Latch done(1);
    runtime_->block_on(start_chain(done, chain_length));
  }

 private:
  std::unique_ptr<rt::Runtime> runtime_;
};

}  // namespace bench::course
