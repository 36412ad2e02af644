//@ file threads..
// The block_on waker, compiled once per runtime; see park_thread.hpp.
#include "rt/loom.hpp"
#include "rt/runtime/park_thread.hpp"

#include <utility>

namespace rt::detail {

//@ listing park_thread
// The waker's data: a small reference-counted object with its own table
// (not a task header), so a clone can outlive the block_on call.
struct ParkThread::Signal {
  explicit Signal(std::shared_ptr<Parker> parker) : parker(std::move(parker)) {}

  static Signal* self(const void* data) { return static_cast<Signal*>(const_cast<void*>(data)); }
  static RawWaker clone(const void* data) {
    // relaxed: a clone is made from a live reference.
    self(data)->refs.fetch_add(1, std::memory_order_relaxed);
    return {data, &vtable};
  }
  static void wake(const void* data) {
    wake_by_ref(data);
    drop(data);
  }
  static void wake_by_ref(const void* data) {
    Signal* signal = self(data);
    signal->woken.store(true, std::memory_order_release);  // publish before the unpark
    signal->parker->unpark();
  }
  static void drop(const void* data) {
    // acq_rel: the last owner sees every other owner's use before deleting.
    if (self(data)->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete self(data);
  }
  static constexpr RawWakerVTable vtable{&clone, &wake, &wake_by_ref, &drop};

  loom::atomic<std::size_t> refs{1};
  loom::atomic<bool> woken{true};  // the first poll needs no wake-up
  std::shared_ptr<Parker> parker;
};
//@ listing-end park_thread

//@ chapters ..coop
ParkThread::ParkThread()
    : parker_(std::make_shared<Parker>()),
//@ else
ParkThread::ParkThread(Driver* driver)
    : parker_(std::make_shared<Parker>(driver)),
//@ end
      signal_(new Signal(parker_)),
      waker_(Waker::from_raw({signal_, &Signal::vtable})) {}

bool ParkThread::take_woken() {
  // A load first: block_on asks before every task it runs, and is rarely
  // woken, while an exchange is a locked instruction even when it finds
  // false. A wake that lands just after the load is taken on the next ask:
  // its unpark keeps the thread from sleeping through it.
  // acquire (both): see what the waker's thread wrote before it woke us.
  if (!signal_->woken.load(std::memory_order_acquire)) return false;
  return signal_->woken.exchange(false, std::memory_order_acquire);
}

}  // namespace rt::detail
