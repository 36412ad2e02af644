//@ file lifo-slot..
// The LIFO slot: a task woken on a worker goes into the slot and runs as
// soon as the task that woke it yields the thread, on the same worker, up
// to a limit. Mirrors the LIFO handling of Tokio's
// runtime/scheduler/multi_thread/worker.rs (schedule_local, run_task's
// loop and MAX_LIFO_POLLS_PER_TICK); see worker.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

//@ listing schedule_local
void MultiThread::schedule_local(std::size_t index, Header* task, bool is_yield) {
  Worker& worker = workers_[index];
  worker.local_schedules.add();  // a statistic
  //@ exercise lifo-slot lifo_schedule
  bool others_can_take_it = true;
  //@ mutant lifo-slot lifo_takes_yields: a task that yields goes into the slot too
  if (is_yield || !worker.lifo_enabled) {
  //@ instead
  if (!worker.lifo_enabled) {
  //@ end
    // A yield asks to let the others run first: the back of the ring.
    push_to_ring(worker, task);
  } else {
    // It runs next, here, while what woke it is still in this core's cache.
    Header* displaced = std::exchange(worker.lifo_slot, task);
    //@ mutant lifo-slot lifo_loses_displaced: drops the task the new one displaces from the slot
    if (displaced) push_to_ring(worker, displaced);
    //@ instead
    //@ end
    // Only the slot changed: nothing another worker could take.
    //@ mutant lifo-slot lifo_never_notifies: never wakes an idle worker for the task pushed out of the slot
    others_can_take_it = displaced != nullptr;
    //@ instead
    others_can_take_it = false;
    //@ end
  }
  //@ mutant lifo-slot lifo_slot_notifies: wakes an idle worker even when only the slot changed
  if (others_can_take_it) notify_parked();
  //@ instead
  (void)others_can_take_it;
  notify_parked();
  //@ end
  //@ starter
  // TODO: queue `task`, woken or spawned on worker `index`'s own thread:
  //  - into the LIFO slot (worker.lifo_slot), to run right after the task
  //    being polled; a task already in the slot moves to the back of the
  //    ring (push_to_ring);
  //  - but to the back of the ring when the task yields (is_yield), or
  //    while the slot is off (worker.lifo_enabled false);
  //  - then wake an idle worker (notify_parked()) if, and only if,
  //    something went into the ring, where other workers can steal it.
  // Hint: a task that yields asked to let the others run: what would the
  // slot do to that promise?
  (void)worker;
  (void)task;
  (void)is_yield;
  throw Todo("@NN@ lifo_schedule (@FILE@)");
  //@ end
}

//@ chapters lifo-slot
void MultiThread::yield_now(Header* task) {
  if (std::optional<std::size_t> index = current_worker()) {
    schedule_local(*index, task, /*is_yield=*/true);
    return;
  }
  schedule(task);  // not on one of this runtime's workers
}
//@ end
//@ listing-end schedule_local

//@ listing run_lifo_slot
void MultiThread::run_lifo_slot(Worker& worker) {
  //@ exercise lifo-slot lifo_polls
  // What the task just polled woke runs next. Not forever: two tasks that
  // wake each other would keep the slot, and the ring, to themselves.
  for (std::uint32_t lifo_polls = 0;;) {
    Header* task = next_lifo_task(worker);
    if (!task) break;
    //@ mutant lifo-slot lifo_unlimited: runs the slot's tasks for as long as they wake each other
    if (++lifo_polls >= max_lifo_polls_per_tick) worker.lifo_enabled = false;
    //@ instead
    ++lifo_polls;
    //@ end
    poll_counted(worker, task);
//@ chapters blocking..
    if (!current_worker()) return;  // the core went with block_in_place
//@ end
  }
  //@ mutant lifo-slot lifo_never_reenabled: leaves the slot off for good once it was capped
  worker.lifo_enabled = !config_.disable_lifo_slot;
  //@ instead
  //@ end
  //@ starter
  // TODO: the task just polled may have woken another into the slot:
  // take it (next_lifo_task(worker)) and poll it (poll_counted(worker,
  // task)), and again, while there is one. But at most
  // max_lifo_polls_per_tick of them: from the last one on, the slot is
  // off (worker.lifo_enabled = false), so what it wakes goes to the
  // ring. Once the slot is empty, it is on again, unless the builder
  // disabled it (config_.disable_lifo_slot).
  // Hint: two tasks that wake each other through a channel: without the
  // limit, what happens to every other task of this worker?
  (void)worker;
  throw Todo("@NN@ lifo_polls (@FILE@)");
  //@ end
}
//@ listing-end run_lifo_slot

//@ listing next_lifo_task
Header* MultiThread::next_lifo_task(Worker& worker) {
  Header* task = std::exchange(worker.lifo_slot, nullptr);
//@ chapters coop..
  // The slot's task runs on what is left of the budget of the task that
  // woke it: with nothing left, it waits its turn in the ring instead.
  //@ mutant coop lifo_ignores_budget: polls the slot's task even when the budget is spent
  if (task && !coop::has_budget_remaining()) {
    push_to_ring(worker, task);
    return nullptr;
  }
  //@ instead
  //@ end
//@ end
  return task;
}
//@ listing-end next_lifo_task

}  // namespace rt::detail
