// Chapter 11's model-test helpers: a blocking pool made by itself (no
// runtime: its jobs are tasks bound to it), jobs that call a function,
// and the chapter's Flag, whose lock and condition variable are the
// checker's here.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include "../blocking.hpp"
#include "model/model.hpp"
#include "model/sync.hpp"
#include "rt/blocking/pool.hpp"
#include "rt/rt.hpp"
#include "rt/task/cell.hpp"

namespace ch11_model {

using ch11::Flag;

// A blocking pool of its own, and its jobs: each a task whose one poll
// calls a function, with a JoinHandle that says whether it ran or was
// cancelled (as spawn_blocking makes them, without the runtime).
class Jobs {
 public:
  explicit Jobs(rt::detail::BlockingConfig config)
      : pool_(std::make_shared<rt::detail::BlockingPool>(std::move(config))) {}

  rt::detail::BlockingPool& pool() { return *pool_; }

  rt::JoinHandle<void> spawn(std::function<void()> f, bool mandatory = false) {
    auto* cell = rt::detail::Cell<void>::create(pool_, call(std::move(f)));
    rt::JoinHandle<void> handle(cell);
    pool_->spawn(cell, mandatory);
    return handle;
  }

  // The job has run, once (a task's coroutine runs at most once).
  static void check_ran(rt::JoinHandle<void>& job) {
    model::check(job.is_finished(), "a job spawned before shutdown neither ran nor was cancelled");
    try {
      job.await_resume();
    } catch (const rt::JoinError& error) {
      model::check(false, error.is_cancelled() ? "a job that a thread had been found for was cancelled instead of run"
                                               : "a job threw");
    }
  }

 private:
  static rt::Task<> call(std::function<void()> f) {
    f();
    co_return;
  }

  std::shared_ptr<rt::detail::BlockingPool> pool_;
};

}  // namespace ch11_model
