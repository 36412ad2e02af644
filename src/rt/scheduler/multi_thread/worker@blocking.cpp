// The loop each worker runs. Mirrors run and run_task in Tokio's
// runtime/scheduler/multi_thread/worker.rs.
//
// Each worker loops: take the next task (local_queue.cpp: the LIFO slot,
// its ring, the global queue every global_queue_interval ticks); with
// none, search (steal.cpp: steal half of another worker's ring, or take
// from the global queue); with nothing found, park (park_worker.cpp). At
// most about half the workers search at once, and no wake-up is lost
// (idle.hpp says how). After each task come the slot's (lifo_slot.cpp).
//
// The loop is a job of the blocking pool, and block_in_place can take the
// thread from under it (block_in_place.cpp): after each task, the loop
// checks that its thread still holds the worker's core.
#include "rt/scheduler/multi_thread/worker.hpp"

#include "rt/blocking/spawn_blocking.hpp"
#include "rt/runtime/context.hpp"
#include "rt/task/coop.hpp"
#include "rt/task/harness.hpp"

namespace rt::detail {

void MultiThread::start() {
  // Each worker's loop is a job of the blocking pool, as in Tokio, so
  // that block_in_place can hand a core to a new thread the same way.
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    auto loop = [self = shared_from_this(), index] {
      self->started_.count_down();
      self->run(index);
    };
    // Its JoinHandle goes at once: the loop runs until shutdown.
    (void)detail::spawn_blocking_on(shared_from_this(), std::move(loop), /*mandatory=*/true);
  }
  // A runtime that build() returns has all its workers: none starts
  // later, in the middle of what the caller measures or expects.
  started_.wait();
}

//@ listing run
void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
  current_worker_here_ = {this, index};
  Worker& worker = workers_[index];
  worker.stats.start_batch(Stats::Clock::now());
  for (;;) {
    ++worker.tick;
    if (worker.tick % config_.event_interval == 0 && !maintenance(worker)) break;
    if (Header* task = next_task(index)) {
      run_task(worker, task);
      // block_in_place gave the core away: another thread runs this loop now.
      if (!current_worker()) return;
      continue;
    }
    worker.stats.end_batch(Stats::Clock::now());
//@ chapters capstone..
    std::uint64_t stolen_before = worker.steals.load();
//@ end
    if (Header* task = steal_work(index)) {
//@ chapters capstone..
      instruments().record_steal(index, worker.steals.load() - stolen_before);  // 0: from the global queue
//@ end
      worker.stats.start_batch(Stats::Clock::now());
      run_task(worker, task);
      if (!current_worker()) return;
      continue;
    }
    if (inject_.is_closed()) break;  // shut down
    if (!worker.deferred.empty()) {  // only the tasks that yielded are left
      wake_deferred(worker);
      worker.stats.start_batch(Stats::Clock::now());
      continue;
    }
    park(index);
    worker.stats.start_batch(Stats::Clock::now());
  }
  current_worker_here_ = {};
  cores_done_.count_down();
}
//@ listing-end run

void MultiThread::run_task(Worker& worker, Header* task) {
  transition_from_searching(worker);
  // One budget for the task and for the LIFO polls after it: a pair that
  // wakes each other through the slot yields as one task would.
  coop::detail::BudgetGuard budget;
  poll_counted(worker, task);
  if (!current_worker()) return;  // the core went with block_in_place
  run_lifo_slot(worker);
}

void MultiThread::poll_counted(Worker& worker, Header* task) {
  worker.stats.start_poll();
  worker.polls.add();  // a statistic
//@ chapters capstone..
  PollTimer timer(instruments(), static_cast<std::size_t>(&worker - workers_.data()), task);
//@ end
  poll(task);  // the Notified's reference goes with it
}

}  // namespace rt::detail
