//@ chapters local-queues
// The loop each worker runs. Mirrors run and run_task in Tokio's
// runtime/scheduler/multi_thread/worker.rs, as they would be without
// stealing (chapter 06) and the LIFO slot (chapter 07).
//
// Each worker loops: take the next task (local_queue.cpp: its ring first,
// the global queue every global_queue_interval ticks so that nothing there
// starves) and poll it; with none, park until work arrives
// (park_worker.cpp).
//@ else
// The loop each worker runs. Mirrors run and run_task in Tokio's
// runtime/scheduler/multi_thread/worker.rs.
//
// Each worker loops: take the next task (local_queue.cpp); with none,
// search (steal.cpp: steal half of another worker's ring, or take from the
// global queue); with nothing found, park (park_worker.cpp). At most about
// half the workers search at once, and no wake-up is lost (idle.hpp says
// how). From chapter 07 on, the tasks a task woke run right after it, on
// the same worker (lifo_slot.cpp).
//@ end
#include "rt/scheduler/multi_thread/worker.hpp"

#include <pthread.h>

#include "rt/runtime/context.hpp"
#include "rt/task/harness.hpp"
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

void MultiThread::start() {
  threads_.reserve(workers_.size());
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    threads_.emplace_back([self = shared_from_this(), index] {
      // Linux keeps 15 characters of a thread's name.
      pthread_setname_np(pthread_self(), self->config_.thread_name.substr(0, 15).c_str());
      self->run(index);
    });
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
  started_.count_down();
  worker.stats.start_batch(Stats::Clock::now());
  for (;;) {
    ++worker.tick;
    if (worker.tick % config_.event_interval == 0 && !maintenance(worker)) break;
    if (Header* task = next_task(index)) {
      run_task(worker, task);
      continue;
    }
    worker.stats.end_batch(Stats::Clock::now());
//@ chapters stealing..
    if (Header* task = steal_work(index)) {
      worker.stats.start_batch(Stats::Clock::now());
      run_task(worker, task);
      continue;
    }
//@ end
    if (inject_.is_closed()) break;  // shut down
//@ chapters coop..
    if (!worker.deferred.empty()) {  // only the tasks that yielded are left
      wake_deferred(worker);
      worker.stats.start_batch(Stats::Clock::now());
      continue;
    }
//@ end
    park(index);
    worker.stats.start_batch(Stats::Clock::now());
  }
  current_worker_here_ = {};
}
//@ listing-end run

void MultiThread::run_task(Worker& worker, Header* task) {
//@ chapters stealing..
  transition_from_searching(worker);
//@ end
//@ chapters coop..
  // One budget for the task and for the LIFO polls after it: a pair that
  // wakes each other through the slot yields as one task would.
  coop::detail::BudgetGuard budget;
//@ end
  poll_counted(worker, task);
//@ chapters lifo-slot..
  run_lifo_slot(worker);
//@ end
}

void MultiThread::poll_counted(Worker& worker, Header* task) {
  worker.stats.start_poll();
  worker.polls.add();  // a statistic
  poll(task);  // the Notified's reference goes with it
}

}  // namespace rt::detail
