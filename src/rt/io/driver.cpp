//@ file reactor..
// The I/O driver, compiled once per runtime; see driver.hpp.
#include "rt/io/driver.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "rt/util/system_error.hpp"

namespace rt::detail {

IoDriver::IoDriver(std::size_t max_events_per_tick)
    : epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)), wake_fd_(-1), events_(max_events_per_tick) {
  if (epoll_fd_ < 0) throw_last_os_error("epoll_create1");
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    ::close(epoll_fd_);
    throw_last_os_error("eventfd");
  }
  epoll_event event{};
  event.events = EPOLLIN | EPOLLET;
  event.data.u64 = wake_token;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &event) < 0) {
    ::close(wake_fd_);
    ::close(epoll_fd_);
    throw_last_os_error("epoll_ctl");
  }
}

IoDriver::~IoDriver() {
  ::close(wake_fd_);
  ::close(epoll_fd_);
}

//@ listing add_source
std::shared_ptr<ScheduledIo> IoDriver::add_source(int fd) {
  std::shared_ptr<ScheduledIo> io = registrations_.allocate();
  if (!io) return nullptr;  // shut down
  epoll_event event{};
  //@ mutant reactor level_triggered: registers level-triggered, so a socket nobody reads is reported on every turn
  event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  //@ instead
  event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
  //@ end
  event.data.ptr = io.get();
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) < 0) {
    int error = errno;
    registrations_.deregister(io.get());
    throw std::system_error(error, std::system_category(), "epoll_ctl(EPOLL_CTL_ADD)");
  }
  registered_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  return io;
}

void IoDriver::deregister_source(int fd, ScheduledIo* io) {
  // From now on no epoll_wait names it; one in progress may still have.
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  deregistered_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  //@ mutant reactor release_wakes_nobody: leaves the released registrations to the next event, which may never come
  if (registrations_.deregister(io)) unpark();  // many to free: have them freed
  //@ instead
  registrations_.deregister(io);
  //@ end
}
//@ listing-end add_source

void IoDriver::unpark() {
  std::uint64_t one = 1;
  // Fails only when the counter is full, which wakes the driver anyway.
  [[maybe_unused]] ssize_t written = ::write(wake_fd_, &one, sizeof one);
}

//@ listing turn
std::size_t IoDriver::turn(int timeout_ms) {
  //@ exercise reactor turn
  // The events of the last turn are all dispatched: what was released
  // since can be freed now.
  //@ mutant reactor turn_never_frees: never frees the released registrations: one leaks per connection until shutdown
  if (registrations_.needs_release()) registrations_.release();
  //@ instead
  //@ end
  int count = ::epoll_wait(epoll_fd_, events_.data(), static_cast<int>(events_.size()), timeout_ms);
  if (count < 0) {
    //@ mutant reactor turn_eintr_is_error: takes a signal's EINTR from epoll_wait for an error
    if (errno == EINTR) return 0;  // a signal: the caller looks around and parks again
    //@ instead
    //@ end
    throw_last_os_error("epoll_wait");
  }
  for (int i = 0; i < count; ++i) dispatch(events_[i]);
  return static_cast<std::size_t>(count);
  //@ starter
  // TODO: one turn of the driver:
  //  - first free the registrations released since the last turn
  //    (registrations_.needs_release(), registrations_.release()): no
  //    event of the last epoll_wait can name them any more;
  //  - wait for events (::epoll_wait on epoll_fd_, into events_, at most
  //    events_.size() of them, for timeout_ms); EINTR is not an error:
  //    just return 0;
  //  - hand each event to dispatch(), and return how many came.
  // Hint: why free the released registrations here, and not when they
  // are deregistered?
  (void)timeout_ms;
  throw Todo("@NN@ turn (@FILE@)");
  //@ end
}

void IoDriver::dispatch(const epoll_event& event) {
  //@ exercise reactor dispatch
  if (event.data.u64 == wake_token) {
    // An unpark: empty the counter, so that writes never fill it up.
    std::uint64_t value;
    [[maybe_unused]] ssize_t drained = ::read(wake_fd_, &value, sizeof value);
    //@ mutant reactor dispatch_counts_unparks: counts the eventfd's wake-ups as I/O events
    return;
    //@ instead
    ready_count_.fetch_add(1, std::memory_order_relaxed);
    return;
    //@ end
  }
  auto* io = static_cast<ScheduledIo*>(event.data.ptr);
  io::Ready ready = io::from_epoll(event.events);
  // The readiness first, the wake second: a woken task must find it.
  io->set_readiness(ready);
  //@ mutant reactor dispatch_forgets_wake: records the readiness but wakes nobody
  io->wake(ready);
  //@ instead
  //@ end
  ready_count_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  //@ starter
  // TODO: one event from epoll_wait:
  //  - event.data.u64 == wake_token: it is the eventfd that unpark()
  //    writes; read its counter (8 bytes from wake_fd_) so that writes
  //    never fill it up, and that is all;
  //  - otherwise event.data.ptr is the ScheduledIo of a socket: turn the
  //    epoll bits into io::Ready (io::from_epoll(event.events)), record
  //    them (set_readiness), then wake the tasks waiting for them (wake),
  //    and count it in ready_count_ (relaxed: a statistic).
  // Hint: in which order must recording and waking come, so that a woken
  // task always finds what woke it?
  (void)event;
  throw Todo("@NN@ dispatch (@FILE@)");
  //@ end
}
//@ listing-end turn

void IoDriver::shutdown() {
  for (const std::shared_ptr<ScheduledIo>& io : registrations_.shutdown()) io->shutdown();
}

}  // namespace rt::detail
