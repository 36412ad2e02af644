// yield_many: 200 tasks each yield 1,000 times. The cost of a poll and a
// re-queue, with nothing else going on. Tokio's yield_many.
#pragma once

#include <memory>
#include <vector>

#include "../workloads.hpp"
#include "runtime.hpp"

namespace bench::course {

inline rt::Task<> yield_repeatedly(long times) {
  for (long i = 0; i < times; ++i) co_await rt::yield_now();
}

class YieldMany : public Workload {
 public:
  YieldMany(Flavour flavour, int workers) : runtime_(make_runtime(flavour, workers)) {}

  void iteration() override {
    std::vector<rt::JoinHandle<void>> handles;
    for (long i = 0; i < yield_tasks; ++i) handles.push_back(runtime_->spawn(yield_repeatedly(yields_per_task)));
    runtime_->block_on(join_all(handles));
  }

 private:
  std::unique_ptr<rt::Runtime> runtime_;
};

}  // namespace bench::course
