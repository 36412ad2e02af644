//@ file reactor..
// Registration: a non-blocking socket registered with the runtime's I/O
// driver, and the loop every operation on it runs. Mirrors Tokio's
// runtime/io/registration.rs and io/poll_evented.rs together.
//
// An operation (read, write, accept, ...) is one system call, tried when
// the socket looks ready:
//
//   ready?  no  -> store the waker, pending
//           yes -> try the call -> done, or EAGAIN: the readiness was
//                  stale: clear it (if no newer event came) and look again
//
// The Registration owns the descriptor: it deregisters it from the driver,
// then closes it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <optional>

#include "rt/io/driver.hpp"
#include "rt/io/ready.hpp"
#include "rt/io/scheduled_io.hpp"
#include "rt/loom.hpp"
#include "rt/task/context.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

// Called, when set, when an operation's system call failed with EAGAIN,
// before it clears the readiness: lets a test deliver an event at exactly
// that moment.
inline loom::atomic<void (*)(ScheduledIo&)> after_would_block{nullptr};

// One system call on a descriptor: returns what the call returns (-1 with
// errno set on failure). `state` is the operation's own (buffer, ...).
struct IoCall {
  ssize_t (*call)(int fd, void* state);
  void* state;
  ssize_t operator()(int fd) const { return call(fd, state); }
};

class Registration {
 public:
  // Registers `fd` (non-blocking already) with the current runtime's
  // driver and takes it over; throws when there is no runtime or no I/O.
  explicit Registration(int fd);
  ~Registration();
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

  int fd() const { return fd_; }

  // Runs `call` when the socket is ready in `direction`: its result (>= 0),
  // or nothing when the task must wait (its waker is stored). Throws
  // std::system_error for an error, and when the runtime shut down.
  std::optional<ssize_t> poll_io(Context& cx, io::Direction direction, IoCall call);
  // The same without waiting: nothing when the call would block.
  std::optional<ssize_t> try_io(io::Direction direction, IoCall call);
  // Ready in `direction` (the readiness stays): true, or false and the
  // waker is stored. Throws when the runtime shut down.
  bool poll_ready(Context& cx, io::Direction direction);

  ScheduledIo& scheduled_io() { return *io_; }

 private:
  int fd_;
  std::shared_ptr<IoDriver> driver_;  // kept alive for the deregistration
  std::shared_ptr<ScheduledIo> io_;
};

}  // namespace rt::detail
