//@ file reactor..
// IoDriver: one epoll instance per runtime, the sockets registered with it,
// and the eventfd that wakes whoever waits in it. Mirrors Tokio's
// runtime/io/driver.rs (with mio's epoll selector and eventfd waker).
//
// There is no I/O thread. Whoever parks holding the runtime's driver lock
// (rt/runtime/driver.hpp) turns it: epoll_wait, then, for each event, set
// the socket's readiness and wake the tasks waiting for it. Any thread may
// register and deregister sockets, and wake the driver (unpark).
//
// Sockets are registered once, edge-triggered, for reading, writing and
// the peer's shutdown: epoll reports a change once, and the readiness
// word remembers it until a task's system call says it is gone.
#pragma once

#include <sys/epoll.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rt/io/registration_set.hpp"
#include "rt/io/scheduled_io.hpp"
#include "rt/loom.hpp"

namespace rt::detail {

class IoDriver {
 public:
  explicit IoDriver(std::size_t max_events_per_tick);
  ~IoDriver();
  IoDriver(const IoDriver&) = delete;
  IoDriver& operator=(const IoDriver&) = delete;

  // Any thread: registers `fd`; nullptr once the driver is shut down.
  std::shared_ptr<ScheduledIo> add_source(int fd);
  // Any thread: stops watching `fd`; its ScheduledIo is freed by a later turn.
  void deregister_source(int fd, ScheduledIo* io);
  // Any thread: makes a turn in progress (or the next one) return at once.
  void unpark();
  // Once, when the runtime shuts down: every registration's waits end with
  // an error, and no new one is accepted.
  void shutdown();

  // The thread holding the driver: waits up to `timeout_ms` (-1: no limit,
  // 0: not at all) for events, and dispatches them. Returns how many
  // events came (an unpark counts).
  std::size_t turn(int timeout_ms);

  // Metrics (Tokio's io_driver_ready_count, fd_registered, fd_deregistered).
  std::uint64_t ready_count() const { return ready_count_.load(std::memory_order_relaxed); }
  std::uint64_t fd_registered_count() const { return registered_.load(std::memory_order_relaxed); }
  std::uint64_t fd_deregistered_count() const { return deregistered_.load(std::memory_order_relaxed); }
  // Registrations still in memory, live or released and not freed yet:
  // what a leak per connection would show (the tests read it).
  std::size_t registrations_held() const { return registrations_.held(); }

 private:
  // One event: the readiness it brings, to the registration it names.
  void dispatch(const epoll_event& event);

  int epoll_fd_;
  int wake_fd_;                       // an eventfd: unpark writes, the turn reads
  std::vector<epoll_event> events_;   // only the thread holding the driver
  RegistrationSet registrations_;
  loom::atomic<std::uint64_t> ready_count_{0};
  loom::atomic<std::uint64_t> registered_{0};
  loom::atomic<std::uint64_t> deregistered_{0};
};

// The epoll token of the eventfd; any other token is a ScheduledIo's address.
inline constexpr std::uint64_t wake_token = 0;

}  // namespace rt::detail
