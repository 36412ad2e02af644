//@ file capstone..
// The signal driver, compiled once per runtime; see driver.hpp.
#include "rt/signal/driver.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

#include "rt/runtime/context.hpp"
#include "rt/runtime/driver.hpp"
#include "rt/signal/registry.hpp"

namespace rt::detail {

// The waker is not counted: this driver outlives every copy of it, since
// the I/O driver's shutdown wakes (and so drops) them all before the
// runtime's driver, and this with it, is destroyed.
const RawWakerVTable SignalDriver::vtable = {&SignalDriver::clone, &SignalDriver::wake,
                                             &SignalDriver::wake, &SignalDriver::drop};

RawWaker SignalDriver::clone(const void* data) { return RawWaker{data, &vtable}; }

void SignalDriver::wake(const void* data) {
  static_cast<SignalDriver*>(const_cast<void*>(data))->on_ready();
}

SignalDriver::SignalDriver(std::shared_ptr<IoDriver> io) : io_(std::move(io)) {
  SignalRegistry& registry = SignalRegistry::instance();
  for (auto [source, fd] : {std::pair{&signals_, registry.signal_fd()}, std::pair{&wake_, registry.wake_fd()}}) {
    // A descriptor of our own: each runtime registers, and closes, its dup.
    source->fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (source->fd < 0) throw std::system_error(errno, std::system_category(), "fcntl(F_DUPFD_CLOEXEC)");
    source->io = io_->add_source(source->fd);
    if (!source->io) throw std::logic_error("A runtime was found, but it is being shutdown.");
  }
  if (arm()) on_ready();
}

SignalDriver::~SignalDriver() {
  for (Source* source : {&signals_, &wake_}) {
    if (source->io) io_->deregister_source(source->fd, source->io.get());
    if (source->fd >= 0) ::close(source->fd);
  }
}

//@ listing signal_driver_arm
bool SignalDriver::arm() {
  Waker waker = Waker::from_raw(RawWaker{this, &vtable});
  Context cx(waker);
  bool ready = false;
  for (Source* source : {&signals_, &wake_}) {
    std::optional<ReadyEvent> event = source->io->poll_readiness(cx, io::Direction::read);
    if (!event) continue;  // the waker is left: the next delivery wakes it
    if (event->is_shutdown) return false;  // the runtime is going: nothing more to hear
    source->io->clear_readiness(*event);   // we read everything next, in process()
    ready = true;
  }
  return ready;
}

void SignalDriver::on_ready() {
  // Clear, then read: a delivery after the clear sets the readiness again
  // and arm() sees it, so none waits unread.
  do {
    SignalRegistry::instance().process();
  } while (arm());
}
//@ listing-end signal_driver_arm

SignalDriver& current_signal_driver() {
  const std::shared_ptr<SchedulerHandle>& handle = runtime_context.handle;
  if (!handle) {
    throw std::logic_error("there is no reactor running, must be called from the context of a runtime");
  }
  Driver* driver = handle->driver();
  if (!driver || !driver->io()) {
    throw std::logic_error(
        "A runtime was found, but IO is disabled. Call `enable_io` on the runtime builder to enable IO.");
  }
  return driver->signal();
}

}  // namespace rt::detail
