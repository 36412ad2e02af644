//@ file threads..
// The multi-thread scheduler's life: built, driving block_on's future,
// shut down. Mirrors Tokio's runtime/scheduler/multi_thread/mod.rs and the
// shutdown half of its worker.rs; see worker.hpp.
#include "rt/loom.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"

#include "rt/runtime/park_thread.hpp"
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

MultiThread::MultiThread(MultiThreadConfig config)
    : config_(std::move(config)), idle_(config_.workers), workers_(config_.workers) {
//@ chapters local-queues..
  if (config_.global_queue_interval) {
    for (Worker& worker : workers_) worker.global_queue_interval = *config_.global_queue_interval;
  }
//@ end
//@ chapters lifo-slot..
  for (Worker& worker : workers_) worker.lifo_enabled = !config_.disable_lifo_slot;
//@ end
//@ chapters reactor..
  driver_ = make_driver(config_.driver);
  // A worker that parks while the driver is free sleeps in it.
  for (Worker& worker : workers_) worker.parker.set_driver(driver_.get());
//@ end
}

//@ listing block_on_multi_thread
void MultiThread::block_on(Poller& root) {
  // The caller's thread only polls its own future; the workers run tasks.
  ParkThread thread;
  Context cx(thread.waker());
  for (;;) {
//@ chapters ..lifo-slot
    if (thread.take_woken() && root.poll(cx)) return;
//@ else
    //@ mutant coop multi_thread_root_unbudgeted: polls block_on's own future without a budget
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    //@ instead
    if (thread.take_woken() && root.poll(cx)) return;
    //@ end
//@ end
    thread.park();
  }
}
//@ listing-end block_on_multi_thread

//@ listing multi_thread_shutdown
void MultiThread::shutdown() {
  //@ exercise threads shutdown
  // 1. Close the queue: every worker leaves its loop once it sees it
  //    closed, and every later wake drops its Notified.
  //@ mutant threads shutdown_wakes_before_close: wakes the workers first and closes the queue after, so a worker that wakes, finds the queue still open and parks again sleeps through the close
  Header* queued = inject_.close();
  //@ instead
  //@ end
  // 2. Wake every worker, so that the parked ones see it too, then wait
  //    for each to finish the poll it is in.
  idle_.take_all();
  //@ mutant threads shutdown_wakes_nobody: joins the workers without waking the parked ones
  for (Worker& worker : workers_) worker.parker.unpark();
  //@ instead
  //@ end
  //@ mutant threads shutdown_wakes_before_close: wakes the workers first and closes the queue after, so a worker that wakes, finds the queue still open and parks again sleeps through the close
  //@ instead
  Header* queued = inject_.close();
  //@ end
//@ chapters ..timers
  for (loom::thread& thread : threads_) thread.join();
//@ else
  // The loops run on the blocking pool's threads, which the Runtime waits
  // for later: here, only until every core's loop has ended.
  cores_done_.wait();
//@ end
  // 3. No task runs any more: cancel every one left, and drop the
  //    Notifieds that were queued.
  //@ mutant threads shutdown_cancels_nothing: leaves the waiting tasks alive
  cancel_all_tasks();
  //@ instead
  owned_.close();
  //@ end
  //@ mutant threads shutdown_leaks_queued: cancels every task but never gives up the references of the Notifieds left queued, so those tasks are never freed
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
  //@ instead
  (void)queued;
  //@ end
//@ chapters local-queues..
  // And those the workers held, now that their owners are gone.
  for (Worker& worker : workers_) drop_own_tasks(worker);
//@ end
  //@ starter
  // TODO: shut the runtime down, leaking nothing and leaving no thread:
  //  - close the queue (inject_.close() hands over what was queued): the
  //    run loop leaves once it finds the queue closed;
  //  - wake every worker (parked ones sleep on workers_[i].parker; also
  //    clear the sleepers' list with idle_.take_all()), then join them;
  //  - cancel every task left (cancel_all_tasks()), and give up the
  //    reference of each Notified that was queued (drop_reference; they
  //    are linked through queue_next).
  // Hint: in what order? A worker still running must not poll a task
  // whose coroutine this thread is destroying.
  throw Todo("@NN@ shutdown (@FILE@)");
  //@ end
}
//@ listing-end multi_thread_shutdown

}  // namespace rt::detail
