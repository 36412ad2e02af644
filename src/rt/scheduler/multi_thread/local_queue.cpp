//@ file local-queues..
// A worker's own queue as its loop uses it: where a task woken on the
// worker goes, which task runs next, and the maintenance every
// event_interval ticks. Mirrors schedule_local, next_task, next_local_task
// and maintenance in Tokio's runtime/scheduler/multi_thread/worker.rs; the
// ring itself is queue.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

#include <algorithm>

namespace rt::detail {

Pushed MultiThread::push_to_ring(Worker& worker, Header* task) {
  Pushed where = worker.run_queue.push_back_or_overflow(task, inject_);
  if (where == Pushed::overflow) worker.overflows.add();  // a statistic
  return where;
}

Header* MultiThread::next_local_task(Worker& worker) {
//@ chapters lifo-slot..
  if (Header* task = std::exchange(worker.lifo_slot, nullptr)) return task;
//@ end
  return worker.run_queue.pop();
}

//@ listing next_task
Header* MultiThread::next_task(std::size_t index) {
  Worker& worker = workers_[index];
  //@ exercise local-queues next_task
  if (worker.tick % worker.global_queue_interval == 0) {
    // Now and then the global queue comes first: else a task waiting
    // there would wait for as long as this worker's tasks keep spawning
    // and waking each other.
    //@ mutant local-queues next_task_never_tunes: never tunes the interval, which stays at 61 whatever the polls take
    tune_global_queue_interval(worker);
    //@ instead
    //@ end
    //@ mutant local-queues next_task_never_fair: never looks at the global queue first
    if (Header* task = inject_.pop()) return task;
    //@ instead
    //@ end
    return next_local_task(worker);
  }
  if (Header* task = next_local_task(worker)) return task;
  return next_remote_batch(worker);
  //@ starter
  // TODO: return worker `index`'s next task, or nullptr when it has none:
  //  - normally its own tasks first (next_local_task(worker)), and, when
  //    it has none, a batch from the global queue (next_remote_batch);
  //  - but every worker.global_queue_interval ticks (worker.tick counts
  //    them), the global queue first (inject_.pop()), then its own; and
  //    call tune_global_queue_interval(worker) at that moment.
  // Hint: what happens to a task in the global queue while a worker's
  // tasks keep waking each other, if the ring always comes first?
  (void)worker;
  throw Todo("@NN@ next_task (@FILE@)");
  //@ end
}
//@ listing-end next_task

Header* MultiThread::next_remote_batch(Worker& worker) {
  if (inject_.is_empty()) return nullptr;
  // A fair share of the global queue, and at most half a ring: the rest
  // is for the other workers. One lock for the whole batch.
  std::size_t room = std::min<std::size_t>(worker.run_queue.remaining_slots(),
                                           LocalQueue<>::capacity / 2);
  std::size_t share = inject_.len() / workers_.size() + 1;
  Header* first = inject_.pop_n(std::max<std::size_t>(1, std::min(share, room)));
  if (!first) return nullptr;
  for (Header* task = first->queue_next; task;) {
    Header* next = task->queue_next;
    worker.run_queue.push_back_or_overflow(task, inject_);  // fits: the room was counted
    task = next;
  }
  first->queue_next = nullptr;
  return first;
}

//@ listing maintenance
bool MultiThread::maintenance(Worker& worker) {
  // A batch ends here too, so that a worker that never runs dry still
  // measures its polls.
  Stats::Clock::time_point now = Stats::Clock::now();
  worker.stats.end_batch(now);
  worker.stats.start_batch(now);
//@ chapters reactor..
  // A worker that never runs dry still hears of I/O now and then: what is
  // ready now, if nobody else is in the driver. The tasks it wakes are
  // queued here, on this worker.
  if (driver_) driver_->poll();
//@ end
//@ chapters coop..
  // Tasks that yielded wait no longer than this, even on a busy worker.
  //@ mutant coop maintenance_keeps_yielders: leaves the tasks that yielded waiting until the worker runs dry
  wake_deferred(worker);
  //@ instead
  //@ end
//@ end
  return !inject_.is_closed();
}
//@ listing-end maintenance

void MultiThread::drop_own_tasks(Worker& worker) {
  //@ mutant local-queues shutdown_leaks_rings: never gives up the references of the tasks left in the workers' rings
  while (Header* task = worker.run_queue.pop()) drop_reference(task);
  //@ instead
  (void)worker;
  //@ end
//@ chapters lifo-slot..
  if (worker.lifo_slot) drop_reference(std::exchange(worker.lifo_slot, nullptr));
//@ end
//@ chapters coop..
  for (Header* task : worker.deferred) drop_reference(task);
  worker.deferred.clear();
//@ end
}

void MultiThread::tune_global_queue_interval(Worker& worker) {
  if (config_.global_queue_interval) return;  // fixed by the builder
  std::uint32_t next = worker.stats.tuned_global_queue_interval();
  std::uint32_t now = worker.global_queue_interval;
  // Small changes are noise: keep the interval steady.
  if ((next > now ? next - now : now - next) > 2) worker.global_queue_interval = next;
}

// The ring's counters, as RuntimeMetrics reads them (worker_metrics.cpp
// has the others).
std::size_t MultiThread::worker_local_queue_depth(std::size_t worker) const {
  return workers_.at(worker).run_queue.len();
}

std::uint64_t MultiThread::worker_local_schedule_count(std::size_t worker) const {
  return workers_.at(worker).local_schedules.load();
}

std::uint64_t MultiThread::worker_overflow_count(std::size_t worker) const {
  return workers_.at(worker).overflows.load();
}

std::uint64_t MultiThread::worker_poll_count(std::size_t worker) const {
  return workers_.at(worker).polls.load();
}

}  // namespace rt::detail
