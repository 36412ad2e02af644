// CurrentThread's non-template half: the block_on loop and shutdown.
#include "rt/loom.hpp"
#include "rt/scheduler/current_thread.hpp"

#include <atomic>

namespace rt::detail {

namespace {

//@ listing block_on_waker
// The waker of the future block_on drives. That future is not a task: it
// is polled right here, on the caller's thread, when `woken` says so, as in
// Tokio. Its waker has a table of its own: the data pointer is this small
// reference-counted object, not a task header. It is allocated once per
// block_on call, and a leaf may keep a clone of it for as long as it
// likes: the parker it reaches is part of the scheduler's shared state.
class BlockOnWaker {
 public:
  // A Waker holding the first reference.
  static Waker create(std::shared_ptr<Parker> parker, BlockOnWaker*& signal) {
    signal = new BlockOnWaker(std::move(parker));
    return Waker::from_raw({signal, &vtable});
  }

  // True once since each wake (the first poll needs none).
  bool take() { return woken_.exchange(false, std::memory_order_acquire); }

 private:
  explicit BlockOnWaker(std::shared_ptr<Parker> parker) : parker_(std::move(parker)) {}

  static BlockOnWaker* self(const void* data) {
    return static_cast<BlockOnWaker*>(const_cast<void*>(data));
  }
  static RawWaker clone(const void* data) {
    // relaxed: a clone is made from a live reference.
    self(data)->refs_.fetch_add(1, std::memory_order_relaxed);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    wake_by_ref(data);
    drop(data);
  }
  static void wake_by_ref(const void* data) {
    BlockOnWaker* signal = self(data);
    signal->woken_.store(true, std::memory_order_release);  // publish before the unpark
    signal->parker_->unpark();
  }
  static void drop(const void* data) {
    // acq_rel: the last owner sees every other owner's use before deleting.
    if (self(data)->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete self(data);
  }

  static constexpr RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  loom::atomic<std::size_t> refs_{1};
  loom::atomic<bool> woken_{true};
  std::shared_ptr<Parker> parker_;
};
//@ listing-end block_on_waker

}  // namespace

CurrentThread::CurrentThread() : shared_(std::make_shared<Shared>()) {}

CurrentThread::~CurrentThread() { shutdown(); }

void CurrentThread::Shared::schedule(Header* task) {
  // Shut down: drop the Notified. Never the last reference: whoever
  // schedules holds one more until schedule() returns.
  if (!queue.push(task)) {
    drop_reference(task);
    return;
  }
  parker.unpark();
}

//@ listing block_on
void CurrentThread::block_on(Poller& root) {
  BlockOnWaker* signal = nullptr;
  // The parker, kept alive by the scheduler's shared state it is part of.
  Waker waker = BlockOnWaker::create(std::shared_ptr<Parker>(shared_, &shared_->parker), signal);
  Context cx(waker);
  for (;;) {
    if (signal->take() && root.poll(cx)) return;
    if (Header* task = shared_->queue.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    shared_->parker.park();  // until a task is queued or the root is woken
  }
}
//@ listing-end block_on

//@ listing runtime_shutdown
void CurrentThread::shutdown() {
  // No new tasks from now on; every live one is cancelled. Each comes out
  // of the list with the list's reference, which detail::shutdown takes.
  // No lock is held meanwhile: destroying a coroutine can wake or drop
  // other tasks.
  shared_->owned.close();
  while (Header* task = shared_->owned.pop()) detail::shutdown(task);
  // The Notifieds still queued are dropped, and so is every later one.
  Header* queued = shared_->queue.close();
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
}
//@ listing-end runtime_shutdown

}  // namespace rt::detail
