//@ file lifo-slot..
// The LIFO slot's polls, compiled once per runtime: what a task just
// polled woke runs next, on the same worker, up to a limit. Mirrors the
// LIFO handling of Tokio's runtime/scheduler/multi_thread/worker.rs
// (run_task's loop and MAX_LIFO_POLLS_PER_TICK); see worker.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

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
