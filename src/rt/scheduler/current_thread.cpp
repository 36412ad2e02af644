// CurrentThread's non-template half: the block_on loop and shutdown.
#include "rt/loom.hpp"
#include "rt/scheduler/current_thread.hpp"

#include <atomic>

namespace rt::detail {

namespace {

// The waker of the future block_on drives. That future is not a task: it is
// polled right here, on the caller's thread, when this flag says it was
// woken, exactly as in Tokio.
//@ listing block_on_signal
class BlockOnSignal final : public Wakeable {
 public:
  explicit BlockOnSignal(std::shared_ptr<Parker> parker) : parker_(std::move(parker)) {}

  void wake() override {
    woken_.store(true, std::memory_order_release);  // publish before the unpark
    parker_->unpark();
  }
  bool take() { return woken_.exchange(false, std::memory_order_acquire); }

 private:
  loom::atomic<bool> woken_{true};  // the first poll needs no wake-up
  // Shared, not borrowed: a thread may still be inside wake() after
  // block_on has returned and the runtime is gone.
  std::shared_ptr<Parker> parker_;
};
//@ listing-end block_on_signal

}  // namespace

CurrentThread::CurrentThread() : shared_(std::make_shared<Shared>()) {}

CurrentThread::~CurrentThread() { shutdown(); }

//@ listing schedule
void CurrentThread::Shared::schedule(TaskRef task) {
  if (!queue.push(std::move(task))) return;  // shut down: the task is dropped
  parker.unpark();
}
//@ listing-end schedule

//@ listing block_on
void CurrentThread::block_on(Poller& root) {
  // The parker lives as long as the shared state it is part of.
  auto signal = std::make_shared<BlockOnSignal>(std::shared_ptr<Parker>(shared_, &shared_->parker));
  Waker waker(signal);
  Context cx(waker);
  for (;;) {
    //@ exercise executor block_on
    //@ mutant executor block_on_tasks_first: runs the queued tasks first and polls the woken root only when none is left, so the root waits behind every task queued meanwhile
    //@ mutant executor block_on_polls_root_always: polls the root on every turn of the loop, woken or not
    if (signal->take() && root.poll(cx)) return;
    //@ instead
    signal->take();
    if (root.poll(cx)) return;
    //@ end
    //@ mutant executor block_on_sleeps_after_each_task: sleeps after each task it runs, even with more queued
    if (auto task = shared_->queue.pop()) {
      (*task)->run();
      continue;
    }
    //@ instead
    if (auto task = shared_->queue.pop()) (*task)->run();
    //@ end
    //@ instead
    if (auto task = shared_->queue.pop()) {
      (*task)->run();
      continue;
    }
    if (signal->take() && root.poll(cx)) return;
    //@ end
    shared_->parker.park();  // until a task is queued or the root is woken
    //@ starter
    // TODO: one turn of the scheduler loop:
    //  - if the root future was woken (signal->take()), poll it with `cx`,
    //    and return once the poll says it has finished;
    //  - else run the next task from shared_->queue, if there is one;
    //  - else sleep with shared_->parker.park() until there is work.
    // Hint: a wake-up that arrives just before park() is not lost: the
    // parker keeps it as a token.
    (void)root;
    (void)cx;
    throw Todo("@NN@ block_on (@FILE@)");
    //@ end
  }
}
//@ listing-end block_on

//@ listing runtime_shutdown
void CurrentThread::shutdown() {
  // Wakes from now on are dropped. Destroying a coroutine can run
  // destructors that wake other tasks or drop the last reference to one:
  // do it with no lock held.
  auto queued = shared_->queue.close();
  auto live = shared_->owned.close();
  for (auto& task : live) task->shutdown();
}
//@ listing-end runtime_shutdown

}  // namespace rt::detail
