// CurrentThread's scheduling, block_on loop and shutdown, compiled once
// per runtime; see current_thread.hpp.
#include "rt/scheduler/current_thread.hpp"

#include <utility>

#include "rt/runtime/park_thread.hpp"
#include "rt/task/harness.hpp"
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

namespace {
// The scheduler whose core this thread holds, if any: a task it spawns or
// wakes goes in that core's local queue, which this thread runs itself
// before it parks, so it needs no unpark. Tokio asks the same of its
// thread-local context: is it this scheduler's, with the core in it?
thread_local const CurrentThread* core_held_here = nullptr;
}  // namespace

//@ chapters reactor..
CurrentThread::CurrentThread(const DriverConfig& driver, std::uint32_t event_interval)
    : event_interval_(event_interval) {
  driver_ = make_driver(driver);
}

void CurrentThread::maintenance() {
  if (tick_ % event_interval_ == 0 && driver_) driver_->poll();
}

//@ end
void CurrentThread::LocalQueue::push(Header* task) {
  task->queue_next = nullptr;
  if (tail_) tail_->queue_next = task;
  else head_ = task;
  tail_ = task;
}

void CurrentThread::LocalQueue::append(Header* first, Header* last) {
  if (tail_) tail_->queue_next = first;
  else head_ = first;
  tail_ = last;
}

Header* CurrentThread::LocalQueue::pop() {
  Header* task = head_;
  if (!task) return nullptr;
  head_ = task->queue_next;
  if (!head_) tail_ = nullptr;
  task->queue_next = nullptr;
  return task;
}

void CurrentThread::schedule(Header* task) {
  // A task (or the root, or the driver) of the core's own thread: no lock,
  // no unpark. Even after shutdown: release_core drops what is left.
  if (core_held_here == this) {
    local_.push(task);
    return;
  }
  schedule_remote(task);
}

void CurrentThread::schedule_remote(Header* task) {
  // Shut down: drop the Notified. Never the last reference: whoever
  // schedules holds one more until schedule() returns.
  if (!queue_.push(task)) {
    drop_reference(task);
    return;
  }
  // Nobody holds the core: the next block_on runs the task, and needs no
  // unpark. seq_cst, after the push: pairs with hold_core (see there).
  if (!core_taken_.load(std::memory_order_seq_cst)) return;
  // Under the lock, so that the holder's parker outlives the unpark (a
  // copy of the shared_ptr would cost two more locked instructions).
  std::lock_guard lock(core_mutex_);
  if (core_parker_) core_parker_->unpark();  // released meanwhile: as above
}

Header* CurrentThread::next_task() {
  // Every global_queue_interval-th poll, and whenever the local queue is
  // empty, whatever other threads queued joins the back of it: tasks that
  // keep waking each other here cannot starve the ones woken elsewhere.
  if (tick_ % global_queue_interval == 0 || local_.is_empty()) take_remote_tasks();
  Header* task = local_.pop();
  if (task) ++tick_;  // the poll that follows
  return task;
}

void CurrentThread::take_remote_tasks() {
  // All of them, under one lock, behind what is queued here already: one
  // lock for many tasks, as Tokio's multi-thread worker takes a batch.
  // (Tokio's current-thread scheduler takes one task per look, so a task
  // that keeps spawning itself runs 31 times for each remote spawn: see
  // the performance page's spawn_many_remote_busy.)
  Header* last = nullptr;
  if (Header* first = queue_.take_all(last)) local_.append(first, last);
}

bool CurrentThread::try_take_core(const std::shared_ptr<Parker>& parker) {
  std::lock_guard lock(core_mutex_);
  if (!core_taken_.load(std::memory_order_relaxed)) {  // written under this lock only
    hold_core(parker);
    return true;
  }
  for (const auto& waiting : waiting_) {
    if (waiting == parker) return false;
  }
  waiting_.push_back(parker);
  return false;
}

void CurrentThread::hold_core(std::shared_ptr<Parker> parker) {
  // local_ and tick_ pass from holder to holder through core_mutex_: the
  // last holder's writes come before its unlock, ours after our lock.
  // seq_cst, before this thread's next look at the injection queue (a
  // seq_cst read of its length): a remote push either sees the core taken
  // and unparks us, or is seen by that look.
  core_taken_.store(true, std::memory_order_seq_cst);
  core_parker_ = std::move(parker);
  // Kept for release_core: shutdown takes this core on a thread that may
  // hold another runtime's (Tokio's set_scheduler restores the same way).
  held_before_ = std::exchange(core_held_here, this);
}

void CurrentThread::release_core() {
  std::unique_lock lock(core_mutex_);
  if (shut_down_) {
    // Nobody will run this core's tasks any more, and shutdown() leaves
    // them to the core's holder. Dropped without the lock: a task's
    // destructor may wake another, onto this same queue.
    lock.unlock();
    drop_local_tasks();
    lock.lock();
  }
  core_held_here = held_before_;
  core_taken_.store(false, std::memory_order_relaxed);  // a remote push may skip the unpark either way
  core_parker_ = nullptr;
  std::vector<std::shared_ptr<Parker>> waiting;
  waiting.swap(waiting_);
  lock.unlock();
  for (const auto& parker : waiting) parker->unpark();  // each tries to take it
}

void CurrentThread::drop_local_tasks() {
  while (Header* task = local_.pop()) drop_reference(task);
}

//@ listing current_thread_block_on
void CurrentThread::block_on(Poller& root) {
//@ chapters ..coop
  ParkThread thread;
//@ else
  // Its parker sleeps in the driver when it is free: the thread in
  // block_on waits for I/O while it waits for work.
  ParkThread thread(driver_.get());
//@ end
  Context cx(thread.waker());
  bool core = false;
  struct Release {  // hands the core on, even if a poll throws
    CurrentThread* self;
    bool& core;
    ~Release() {
      if (core) self->release_core();
    }
  } release{this, core};
  for (;;) {
    if (!core) core = try_take_core(thread.parker());
//@ chapters ..lifo-slot
    if (thread.take_woken() && root.poll(cx)) return;
//@ else
    // Each poll, of the root or of a task, with a fresh budget.
    //@ mutant coop current_thread_root_unbudgeted: polls block_on's own future without a budget
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    //@ instead
    if (thread.take_woken() && root.poll(cx)) return;
    //@ end
//@ end
    // Up to event_interval_ tasks between two looks at the root, as in
    // Tokio: a root that each of them wakes is polled once for them all.
    std::uint32_t ran = 0;
    while (core && ran < event_interval_) {
      Header* task = next_task();
      if (!task) break;
//@ chapters ..lifo-slot
      poll(task);  // the Notified's reference goes with it
//@ end
//@ chapters coop..blocking
      coop::detail::with_budget([task] { poll(task); });  // the Notified's reference goes with it
//@ end
//@ chapters capstone..
      coop::detail::with_budget([this, task] {
        PollTimer timer(instruments(), 0, task);  // the one worker is worker 0
        poll(task);                               // the Notified's reference goes with it
      });
//@ end
//@ chapters reactor..
      maintenance();
//@ end
      ++ran;
    }
    if (ran > 0) continue;
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
//@ listing-end current_thread_block_on

void CurrentThread::shutdown() {
  cancel_all_tasks();
  // The Notifieds still in the injection queue are dropped, and so is
  // every later remote one.
  Header* queued = queue_.close();
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
  // The local queue belongs to the core: its holder empties it as it lets
  // it go (release_core), so take the core if nobody holds it. Tokio's
  // shutdown takes the core too, and drains its queue.
  bool free = false;
  {
    std::lock_guard lock(core_mutex_);
    shut_down_ = true;
    free = !core_taken_.load(std::memory_order_relaxed);  // under the lock, as in try_take_core
    if (free) hold_core(nullptr);
  }
  if (free) release_core();
}

}  // namespace rt::detail
