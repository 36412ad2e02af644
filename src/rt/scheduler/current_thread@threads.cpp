// CurrentThread's scheduling, block_on loop and shutdown, compiled once
// per runtime; see current_thread.hpp.
#include "rt/scheduler/current_thread.hpp"

#include "rt/runtime/park_thread.hpp"
#include "rt/task/harness.hpp"
//@ chapters coop..
#include "rt/task/coop.hpp"
//@ end

namespace rt::detail {

namespace {
// The scheduler whose core this thread holds, if any: it runs the queue
// itself, so a task it schedules needs no unpark.
thread_local const CurrentThread* core_held_here = nullptr;
}  // namespace

//@ chapters reactor..
CurrentThread::CurrentThread(const DriverConfig& driver, std::uint32_t event_interval)
    : event_interval_(event_interval) {
  driver_ = make_driver(driver);
}

void CurrentThread::maintenance() {
  if (++tick_ % event_interval_ == 0 && driver_) driver_->poll();
}

//@ end
void CurrentThread::schedule(Header* task) {
  // Shut down: drop the Notified. Never the last reference: whoever
  // schedules holds one more until schedule() returns.
  if (!queue_.push(task)) {
    drop_reference(task);
    return;
  }
  if (core_held_here == this) return;  // a task (or the root) of the core's own thread
  std::shared_ptr<Parker> core_parker;
  {
    std::lock_guard lock(core_mutex_);
    core_parker = core_parker_;
  }
  if (core_parker) core_parker->unpark();  // nobody holds the core: the next block_on runs it
}

bool CurrentThread::try_take_core(const std::shared_ptr<Parker>& parker) {
  std::lock_guard lock(core_mutex_);
  if (!core_taken_) {
    core_taken_ = true;
    core_parker_ = parker;
    core_held_here = this;
    return true;
  }
  for (const auto& waiting : waiting_) {
    if (waiting == parker) return false;
  }
  waiting_.push_back(parker);
  return false;
}

void CurrentThread::release_core() {
  std::vector<std::shared_ptr<Parker>> waiting;
  core_held_here = nullptr;
  {
    std::lock_guard lock(core_mutex_);
    core_taken_ = false;
    core_parker_ = nullptr;
    waiting.swap(waiting_);
  }
  for (const auto& parker : waiting) parker->unpark();  // each tries to take it
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
    if (core) {
      if (Header* task = queue_.pop()) {
        poll(task);  // the Notified's reference goes with it
        continue;
      }
    }
//@ end
//@ chapters coop..
    // Each poll, of the root or of a task, with a fresh budget.
    if (thread.take_woken() && coop::detail::with_budget([&] { return root.poll(cx); })) return;
    if (core) {
      if (Header* task = queue_.pop()) {
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
//@ chapters coop..
        continue;
      }
    }
//@ end
    thread.park();  // until a task is queued, the root is woken, or the core is free
  }
}
//@ listing-end current_thread_block_on

void CurrentThread::shutdown() {
  cancel_all_tasks();
  // The Notifieds still queued are dropped, and so is every later one.
  Header* queued = queue_.close();
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
}

}  // namespace rt::detail
