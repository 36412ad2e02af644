//@ file threads..
// The multi-thread scheduler's workers, compiled once per runtime; see
// worker.hpp.
#include "rt/scheduler/multi_thread/worker.hpp"

#include <pthread.h>

#include "rt/runtime/context.hpp"
#include "rt/runtime/park_thread.hpp"
#include "rt/task/harness.hpp"

namespace rt::detail {

MultiThread::MultiThread(MultiThreadConfig config)
    : config_(std::move(config)),
      idle_(config_.workers),
      workers_(config_.workers),
      started_(static_cast<std::ptrdiff_t>(config_.workers)) {}

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

std::uint64_t MultiThread::worker_park_count(std::size_t worker) const {
  return workers_.at(worker).parks.load(std::memory_order_relaxed);
}

std::uint64_t MultiThread::worker_unpark_count(std::size_t worker) const {
  return workers_.at(worker).unparks.load(std::memory_order_relaxed);
}

//@ listing schedule
void MultiThread::schedule(Header* task) {
  if (!inject_.push(task)) {  // shut down: drop the Notified
    drop_reference(task);
    return;
  }
  notify_parked();
}

void MultiThread::notify_parked() {
  if (std::optional<std::size_t> worker = idle_.worker_to_notify()) unpark(*worker);
}

void MultiThread::unpark(std::size_t index) {
  workers_[index].unparks.fetch_add(1, std::memory_order_relaxed);  // a statistic
  workers_[index].parker.unpark();
}
//@ listing-end schedule

//@ listing run
void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
  started_.count_down();
  for (;;) {
    if (Header* task = inject_.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    if (inject_.is_closed()) return;  // shut down
    park(index);
  }
}
//@ listing-end run

//@ listing park
void MultiThread::park(std::size_t index) {
  //@ exercise threads park
  //@ mutant threads park_look_before_listing: looks at the queue, then lists itself asleep
  idle_.transition_worker_to_parked(index);
  // Listed first, looked again second: a task queued before the listing
  // found no sleeper to wake, so this look is what finds it.
  //@ mutant threads park_no_second_look: lists itself asleep and parks without looking again
  if (!inject_.is_empty() || inject_.is_closed()) {
    // If a notifier took us off the list meanwhile, its unpark leaves a
    // token: the next park returns at once, and the loop looks again.
    idle_.unpark_worker_by_id(index);
    return;
  }
  //@ instead
  if (inject_.is_closed()) return;  // (only shutdown is looked for)
  //@ end
  //@ instead
  if (!inject_.is_empty() || inject_.is_closed()) return;
  idle_.transition_worker_to_parked(index);
  //@ end
  workers_[index].parks.fetch_add(1, std::memory_order_relaxed);  // a statistic
  workers_[index].parker.park();
  //@ starter
  // TODO: put worker `index` to sleep until there may be work, without
  // ever sleeping through a task queued meanwhile:
  //  - list it as a sleeper (idle_.transition_worker_to_parked), so that
  //    whoever queues a task next wakes it;
  //  - then look at the queue again (and whether it is closed): if there
  //    is work, unlist it (idle_.unpark_worker_by_id) and return;
  //  - else count the park (workers_[index].parks) and sleep on
  //    workers_[index].parker.
  // Hint: why list first and look second? Think of a task pushed between
  // the run loop's empty pop and this call, when nobody was listed.
  (void)index;
  throw Todo("@NN@ park (@FILE@)");
  //@ end
}
//@ listing-end park

//@ listing block_on_multi_thread
void MultiThread::block_on(Poller& root) {
  // The caller's thread only polls its own future; the workers run tasks.
  ParkThread thread;
  Context cx(thread.waker());
  for (;;) {
    if (thread.take_woken() && root.poll(cx)) return;
    thread.park();
  }
}
//@ listing-end block_on_multi_thread

//@ listing multi_thread_shutdown
void MultiThread::shutdown() {
  //@ exercise threads shutdown
  // 1. Close the queue: every worker leaves its loop once it sees it
  //    closed, and every later wake drops its Notified.
  Header* queued = inject_.close();
  // 2. Wake every worker, so that the parked ones see it too, then wait
  //    for each to finish the poll it is in.
  idle_.take_all();
  //@ mutant threads shutdown_wakes_nobody: joins the workers without waking the parked ones
  for (Worker& worker : workers_) worker.parker.unpark();
  //@ instead
  //@ end
  for (std::thread& thread : threads_) thread.join();
  // 3. No task runs any more: cancel every one left, and drop the
  //    Notifieds that were queued.
  //@ mutant threads shutdown_cancels_nothing: leaves the waiting tasks alive
  cancel_all_tasks();
  //@ instead
  owned_.close();
  //@ end
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
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
