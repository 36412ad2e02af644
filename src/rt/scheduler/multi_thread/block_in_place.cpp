//@ file blocking..
// block_in_place on a multi-thread worker: the worker's core (its ring,
// its LIFO slot, its parker, everything only its thread touches) goes to
// a new thread while this one blocks. Mirrors block_in_place in Tokio's
// runtime/scheduler/multi_thread/worker.rs.
//
// The core is set down (core_free) and a job of the blocking pool is
// spawned that takes it up and runs the worker loop. After the blocking
// function, this thread tries to take the core back up: if the job has not
// taken it yet, this thread is the worker again, and the job will find
// nothing to do; if it has, this thread stops being a worker as soon as
// the task it is polling yields, and goes back to the pool.
#include "rt/blocking/spawn_blocking.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt::detail {

std::optional<std::size_t> MultiThread::enter_blocking_section() {
  std::optional<std::size_t> index = current_worker();
  // block_on's thread, or one whose core is given away already (a nested
  // block_in_place): no core to hand off.
  if (!index) return std::nullopt;
  hand_off_core(*index);
  return index;
}

void MultiThread::leave_blocking_section(std::size_t index) { take_back_core(index); }

void MultiThread::set_current_worker(std::optional<std::size_t> index) {
  current_worker_here_ = index ? CurrentWorker{this, *index} : CurrentWorker{};
}

//@ listing hand_off_core
void MultiThread::hand_off_core(std::size_t index) {
  Worker& worker = workers_[index];
  //@ exercise blocking hand_off_core
  // What only this thread would ever run goes where others can take it,
  // in case no new thread can be had soon: the tasks that yielded, and
  // the slot's task, which nobody steals.
  wake_deferred(worker);
  //@ mutant blocking hand_off_keeps_lifo: leaves the slot's task in the slot
  Header* slot_task = std::exchange(worker.lifo_slot, nullptr);
  //@ instead
  Header* slot_task = nullptr;
  //@ end
  if (slot_task) push_to_ring(worker, slot_task);
  // This thread runs none of the ring's tasks now: a worker must hear of
  // them, be it only one.
  //@ mutant blocking hand_off_wakes_nobody: moves the tasks to the ring but wakes no worker to steal them
  if (!worker.run_queue.is_empty()) notify_parked();
  //@ instead
  //@ end
  // From here on this thread spawns and wakes as any other thread does.
  set_current_worker(std::nullopt);
  //@ mutant blocking hand_off_spawns_first: starts the thread that takes the core up before setting the core down, so it may find nothing to take
  // release: the core's state, to whichever thread takes it up.
  //@ mutant blocking hand_off_relaxed: sets the core down with a relaxed store, so a thread that takes it back may not see what was written in it
  worker.core_free.store(true, std::memory_order_release);
  //@ instead
  worker.core_free.store(true, std::memory_order_relaxed);
  //@ end
  auto take_up = [self = shared_from_this(), index] {
    if (self->take_core(index)) self->run(index);
  };
  //@ mutant blocking hand_off_to_nobody: sets the core down but starts no thread to take it up
  (void)spawn_blocking_on(shared_from_this(), std::move(take_up), /*mandatory=*/true);
  //@ instead
  (void)take_up;
  //@ end
  //@ instead
  auto take_up = [self = shared_from_this(), index] {
    if (self->take_core(index)) self->run(index);
  };
  (void)spawn_blocking_on(shared_from_this(), std::move(take_up), /*mandatory=*/true);
  worker.core_free.store(true, std::memory_order_release);
  //@ end
  //@ starter
  // TODO(exercise 4): this thread is about to block; hand the core over.
  // - First, what only this thread would ever run must go where the
  //   other workers can take it, in case no new thread can be had soon:
  //   the tasks that yielded (worker.deferred: wake_deferred does it) and
  //   the slot's task (nobody steals from worker.lifo_slot). Whoever can
  //   take them must hear of them.
  // - Then this thread is no longer the worker (set_current_worker).
  // - Set the core down (worker.core_free, with the ordering that hands
  //   what this thread wrote to the thread that takes it up).
  // - Spawn a mandatory job on the blocking pool
  //   (spawn_blocking_on(shared_from_this(), job, true)) that takes the
  //   core up (take_core) and, if it got it, runs the worker loop
  //   (run(index)).
  // Hint: with every blocking thread busy, the new thread may not start
  // for a long time. Who runs this core's tasks until it does?
  (void)worker;
  throw Todo("@NN@ hand_off_core (@FILE@)");
  //@ end
}
//@ listing-end hand_off_core

//@ listing take_back_core
void MultiThread::take_back_core(std::size_t index) {
  //@ exercise blocking take_back_core
  //@ mutant blocking take_back_unconditionally: takes the core back without asking whether the new thread has it
  if (!take_core(index)) return;  // the new thread runs the loop now
  //@ instead
  (void)take_core(index);
  //@ end
  //@ mutant blocking take_back_never: leaves the core for the new thread even when it is still down
  set_current_worker(index);
  //@ instead
  //@ end
  //@ starter
  // TODO(exercise 5): the blocking function returned. If the core is
  // still down (take_core), this thread takes it up and is worker `index`
  // again (set_current_worker). If the new thread took it first, this
  // thread stops being a worker: the loop it is in returns as soon as the
  // task it polls yields (run checks current_worker()).
  // Hint: both threads may try at the same moment; only one of them may
  // come away with the core.
  (void)index;
  throw Todo("@NN@ take_back_core (@FILE@)");
  //@ end
}
//@ listing-end take_back_core

bool MultiThread::take_core(std::size_t index) {
  // acq_rel: acquire what the thread that set the core down wrote in it;
  // and of the two threads that may try, one exchange alone sees true.
  //@ mutant blocking take_core_checks_then_sets: looks at the flag, then clears it, so two threads may both see it set and both take the core
  //@ mutant blocking take_core_relaxed: takes the core with a relaxed exchange, so it may not see what the thread that set it down wrote in it
  return workers_[index].core_free.exchange(false, std::memory_order_acq_rel);
  //@ instead
  return workers_[index].core_free.exchange(false, std::memory_order_relaxed);
  //@ end
  //@ instead
  if (!workers_[index].core_free.load(std::memory_order_acquire)) return false;
  workers_[index].core_free.store(false, std::memory_order_relaxed);
  return true;
  //@ end
}

std::size_t MultiThread::num_blocking_threads() const {
  // The workers' loops run on the pool's threads too: those are not
  // blocking threads (Tokio's metric subtracts them the same way).
  std::size_t threads = blocking_->num_threads();
  return threads > workers_.size() ? threads - workers_.size() : 0;
}

}  // namespace rt::detail
