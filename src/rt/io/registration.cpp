//@ file reactor..
// A registered socket's operations, compiled once per runtime; see
// registration.hpp.
#include "rt/io/registration.hpp"

#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "rt/runtime/driver.hpp"

namespace rt::detail {

namespace {

[[noreturn]] void throw_shutdown() {
  throw std::system_error(std::make_error_code(std::errc::operation_canceled),
                          "the runtime that drives this socket has shut down");
}

}  // namespace

Registration::Registration(int fd) : fd_(fd) {
  try {
    driver_ = current_io_driver();
    io_ = driver_->add_source(fd);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (!io_) {
    ::close(fd);
    throw_shutdown();
  }
}

Registration::~Registration() {
  driver_->deregister_source(fd_, io_.get());
  ::close(fd_);
}

//@ listing poll_io
std::optional<ssize_t> Registration::poll_io(Context& cx, io::Direction direction, IoCall call) {
  //@ exercise reactor poll_io
  for (;;) {
    std::optional<ReadyEvent> event = io_->poll_readiness(cx, direction);
    if (!event) return std::nullopt;  // not ready: the waker is stored
    if (event->is_shutdown) throw_shutdown();
    ssize_t result = call(fd_);
    if (result >= 0) return result;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      throw std::system_error(errno, std::system_category());
    }
    // The readiness was stale. Forget it, unless an event came since.
    if (auto hook = after_would_block.load(std::memory_order_acquire)) hook(*io_);
    //@ mutant reactor poll_io_never_clears: retries on stale readiness without clearing it
    io_->clear_readiness(*event);
    //@ instead
    //@ end
    //@ mutant reactor poll_io_sleeps_after_clear: returns "wait" after clearing, with no waker stored
    //@ instead
    return std::nullopt;
    //@ end
  }
  //@ starter
  // TODO: run the system call `call(fd_)` once the socket is ready in
  // `direction`, and return its result; or return nothing when the task
  // must wait.
  //  - io_->poll_readiness(cx, direction) says whether it looks ready
  //    (nothing: not ready, and the waker is stored: return nothing);
  //    a ReadyEvent with is_shutdown: throw_shutdown();
  //  - the call returns >= 0: that is the result; -1 with errno EINTR:
  //    try again; EAGAIN (or EWOULDBLOCK): the readiness was stale (see
  //    below); any other errno: throw std::system_error(errno,
  //    std::system_category());
  //  - stale readiness: call the test hook, then clear what the event
  //    reported (io_->clear_readiness(event)), and start over:
  //      if (auto hook = after_would_block.load(std::memory_order_acquire)) hook(*io_);
  // Hint: why start over after clearing, instead of returning "wait"?
  // Think of the event that arrived between the EAGAIN and the clear.
  (void)cx;
  (void)direction;
  (void)call;
  throw Todo("@NN@ poll_io (@FILE@)");
  //@ end
}
//@ listing-end poll_io

std::optional<ssize_t> Registration::try_io(io::Direction direction, IoCall call) {
  for (;;) {
    ReadyEvent event = io_->ready_event(direction);
    if (event.is_shutdown) throw_shutdown();
    if (event.ready == io::none) return std::nullopt;  // would block
    ssize_t result = call(fd_);
    if (result >= 0) return result;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      throw std::system_error(errno, std::system_category());
    }
    //@ mutant reactor try_io_never_clears: returns "would block" but leaves the stale readiness, so readable() is ready at once for ever
    io_->clear_readiness(event);
    //@ instead
    //@ end
    return std::nullopt;
  }
}

bool Registration::poll_ready(Context& cx, io::Direction direction) {
  std::optional<ReadyEvent> event = io_->poll_readiness(cx, direction);
  if (event && event->is_shutdown) throw_shutdown();
  return event.has_value();
}

}  // namespace rt::detail
