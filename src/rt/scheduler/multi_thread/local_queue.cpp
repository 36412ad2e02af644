//@ file local-queues..
// A worker's own queue as its loop uses it: where a task woken on the
// worker goes, which task runs next, and the maintenance every
// event_interval ticks. Mirrors schedule_local, next_task, next_local_task
// and maintenance in Tokio's runtime/scheduler/multi_thread/worker.rs; the
// ring itself is queue.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

#include <algorithm>

namespace rt::detail {

//@ chapters local-queues..stealing
//@ listing schedule_local
void MultiThread::schedule_local(std::size_t index, Header* task) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  Pushed where = push_to_ring(worker, task);
//@ end
//@ chapters local-queues
  // Only this worker runs what is in its ring; what went to the global
  // queue, any worker can.
  //@ mutant local-queues overflow_wakes_nobody: wakes no sleeping worker for the tasks an overflow moved to the global queue
  if (where != Pushed::local) notify_parked();
  //@ instead
  (void)where;
  //@ end
//@ end
//@ chapters stealing
  // Wherever it went, an idle worker can now take it, from the global
  // queue or by stealing. (Cheap when nobody sleeps or somebody searches:
  // worker_to_notify reads one atomic word.)
  //@ mutant stealing ring_push_wakes_nobody: keeps chapter 05's rule, waking a sleeper only for an overflow, so a task in a busy worker's ring waits for it
  (void)where;
  notify_parked();
  //@ instead
  if (where != Pushed::local) notify_parked();
  //@ end
//@ end
//@ chapters local-queues..stealing
}
//@ listing-end schedule_local

//@ end
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

void MultiThread::tune_global_queue_interval(Worker& worker) {
  if (config_.global_queue_interval) return;  // fixed by the builder
  std::uint32_t next = worker.stats.tuned_global_queue_interval();
  std::uint32_t now = worker.global_queue_interval;
  // Small changes are noise: keep the interval steady.
  if ((next > now ? next - now : now - next) > 2) worker.global_queue_interval = next;
}

}  // namespace rt::detail
