// Helpers for the tests of the I/O driver and rt::net (chapter 09 on): the
// runtime flavours with I/O enabled, a connected pair of streams, turning
// the driver by hand, and what the process has open (descriptors, threads)
// as /proc tells it.
//
//   TEST_CASE("..." * POINTS(2)) {
//     rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
//       runtime.block_on([]() -> rt::Task<> {
//         auto [client, server] = co_await rt_test::connected_pair();
//         ...
//       }());
//     });
//   }
//
// Every runtime from chapter 09 on defines RT_HAS_IO (rt/rt.hpp); earlier
// ones have none of this, and this header is empty for them.
#pragma once

#include "rt/rt.hpp"

#ifdef RT_HAS_IO

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "flavours.hpp"
#include "rt/runtime/context.hpp"

namespace rt_test {

// Runs `body(runtime)` on a fresh current-thread runtime with I/O enabled,
// then, once the runtime has shut down, `after()`.
template <class Body, class After = NoAfter>
void on_current_thread_io(Body body, After after = {}) {
  INFO("on the current-thread runtime with I/O");
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().build();
    body(runtime);
  }
  after();
}

// The same on a multi-thread runtime of `workers` workers with I/O enabled.
template <class Body, class After = NoAfter>
void on_multi_thread_io(Body body, std::size_t workers = 2, After after = {}) {
  INFO("on a multi-thread runtime with " << workers << " workers and I/O");
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).enable_io().build();
    body(runtime);
  }
  after();
}

// Both flavours with I/O, one after the other; `after()` after each.
template <class Body, class After = NoAfter>
void on_each_io_runtime(Body body, After after = {}) {
  on_current_thread_io(body, after);
  on_multi_thread_io(body, 2, after);
}

// Two ends of one TCP connection on 127.0.0.1: {the client's, the
// server's}. The listener is gone when it returns. Inside a runtime with I/O.
inline rt::Task<std::pair<rt::net::TcpStream, rt::net::TcpStream>> connected_pair() {
  rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
  // The kernel completes the handshake from the listen queue: the connect
  // ends before anyone accepts.
  rt::net::TcpStream client = co_await rt::net::TcpStream::connect(listener.local_addr());
  auto [server, peer] = co_await listener.accept();
  co_return std::pair<rt::net::TcpStream, rt::net::TcpStream>(std::move(client), std::move(server));
}

// A plain blocking socket of the test's own, registered with no runtime:
// a peer whose sends and closes cause no event in the driver but those of
// the stream it talks to. Closed when it goes.
class RawSocket {
 public:
  explicit RawSocket(int fd = -1) : fd_(fd) {}
  RawSocket(RawSocket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  RawSocket& operator=(RawSocket&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~RawSocket() { close(); }
  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  }

 private:
  int fd_;
};

// The driver of the runtime this code runs in (inside block_on or a task).
inline rt::detail::Driver& current_driver() {
  rt::detail::Driver* driver = rt::detail::runtime_context.handle->driver();
  if (!driver) throw std::logic_error("current_driver: this runtime has no I/O enabled");
  return *driver;
}

// Turns `driver` by hand, without sleeping, until `done()`. Where a
// runtime's thread holds the driver (asleep in it), poll() does nothing and
// that thread dispatches instead: either way the events come. Not a sleep:
// it spins, yielding, and the grader's timeout bounds it.
//
// Beware, on a multi-thread runtime, from a thread that is not a worker:
// a worker that goes to sleep while this holds the driver sleeps on its
// condition variable instead, and when every worker does, nobody is left
// in the driver. Wait for no more I/O on that runtime afterwards (its own
// workers only poll the driver when they will park in it later).
template <class Done>
void turn_until(rt::detail::Driver& driver, Done done) {
  while (!done()) {
    driver.poll();
    std::this_thread::yield();
  }
}

// A waker that does nothing, for a leaf polled by hand until it is ready.
struct NoopWaker {
  static rt::RawWaker clone(const void*) { return {nullptr, &vtable}; }
  static void nothing(const void*) {}
  static constexpr rt::RawWakerVTable vtable{&clone, &nothing, &nothing, &nothing};
  static rt::Waker waker() { return rt::Waker::from_raw({nullptr, &vtable}); }
};

// How stream_with_raw_peer takes the connection: awaiting accept() (the
// runtime wakes the task), or polling it by hand while turning the driver
// by hand (nothing depends on the driver's wake-ups: for the tests of the
// driver itself).
enum class Accepting { awaited, by_hand };

// A stream accepted from a raw peer: {the runtime's end, the peer}.
inline rt::Task<std::pair<rt::net::TcpStream, RawSocket>> stream_with_raw_peer(
    Accepting accepting = Accepting::awaited) {
  rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
  rt::net::SocketAddr address = listener.local_addr();
  RawSocket peer(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (peer.fd() < 0) throw std::system_error(errno, std::system_category(), "socket");
  // Blocking, but brief: the listener's queue completes the handshake.
  if (::connect(peer.fd(), address.raw(), address.length()) < 0) {
    throw std::system_error(errno, std::system_category(), "connect");
  }
  if (accepting == Accepting::awaited) {
    auto [stream, from] = co_await listener.accept();
    co_return std::pair<rt::net::TcpStream, RawSocket>(std::move(stream), std::move(peer));
  }
  rt::Waker waker = NoopWaker::waker();
  rt::Context cx(waker);
  rt::detail::Driver& driver = current_driver();
  auto accept = listener.accept();
  turn_until(driver, [&] { return accept.poll(cx); });
  auto [stream, from] = accept.await_resume();
  co_return std::pair<rt::net::TcpStream, RawSocket>(std::move(stream), std::move(peer));
}

// Whether thread `tid` of this process sits in epoll_wait (or epoll_pwait)
// now, as /proc says of a blocked thread's system call: a test's way to
// act while a runtime's thread sleeps in its driver.
inline bool in_epoll_wait(pid_t tid) {
  std::ifstream file("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long number = -1;
  if (!(file >> number)) return false;
#ifdef SYS_epoll_wait
  if (number == SYS_epoll_wait) return true;
#endif
  return number == SYS_epoll_pwait;
}

// Blocks until the kernel has data (or the end of the stream) for `fd` to
// read: a wait on the socket itself, not on the runtime.
inline void wait_for_data(int fd) {
  pollfd watched{fd, POLLIN, 0};
  while (::poll(&watched, 1, -1) < 1 || !(watched.revents & (POLLIN | POLLHUP | POLLERR))) {
  }
}

// Blocks until the kernel holds at least `bytes` bytes for `fd` to read.
// Spins, yielding, on the socket's own count (the grader's timeout bounds it).
inline void wait_for_bytes(int fd, int bytes) {
  int queued = 0;
  while (::ioctl(fd, FIONREAD, &queued) != 0 || queued < bytes) std::this_thread::yield();
}

// Sends `data` on `fd` (a connected socket, blocking or not, not read by
// the runtime's tasks meanwhile); the test's own peer, bypassing the runtime.
inline void send_raw(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0) throw std::system_error(errno, std::system_category(), "send");
    data.remove_prefix(static_cast<std::size_t>(sent));
  }
}

// How many entries a /proc directory has (the descriptor that lists it
// counts too, the same every time).
inline std::size_t count_entries(const char* directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) ++count;
  return count;
}

// Descriptors open in this process right now.
inline std::size_t open_descriptors() { return count_entries("/proc/self/fd"); }
// Open descriptors that are `kind`, as /proc/self/fd names them
// ("anon_inode:[eventpoll]", "anon_inode:[eventfd]", "socket:...").
inline std::size_t open_descriptors_of(std::string_view kind) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    std::string target = std::filesystem::read_symlink(entry.path(), error).string();
    if (!error && target.rfind(kind, 0) == 0) ++count;
  }
  return count;
}
// Threads in this process right now.
inline std::size_t thread_count() { return count_entries("/proc/self/task"); }

// Raises the soft limit on open descriptors to at least `wanted` if the
// hard limit allows; true when the limit is (now) high enough.
inline bool allow_descriptors(rlim_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur >= wanted) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < wanted) return false;
  limit.rlim_cur = wanted;
  return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// The calling thread's id, as /proc/self/task names it.
inline pid_t current_tid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

// The system call thread `tid` of this process is blocked in: its number,
// or -1 when it is running (or blocked outside a system call).
inline long blocked_in(pid_t tid) {
  std::ifstream file("/proc/self/task/" + std::to_string(tid) + "/syscall");
  if (!file) throw std::runtime_error("cannot read /proc/self/task/" + std::to_string(tid) + "/syscall");
  std::string first;
  file >> first;
  if (first.empty() || first == "running") return -1;
  return std::stol(first);
}

// Whether system call `call` is epoll_wait (in any of its forms): a
// thread blocked in it sleeps in an I/O driver.
inline bool is_epoll_wait(long call) {
#ifdef SYS_epoll_wait
  if (call == SYS_epoll_wait) return true;
#endif
#ifdef SYS_epoll_pwait2
  if (call == SYS_epoll_pwait2) return true;
#endif
  return call == SYS_epoll_pwait;
}

// Whether thread `tid` sleeps in epoll_wait.
inline bool is_in_epoll_wait(pid_t tid) { return is_epoll_wait(blocked_in(tid)); }

// Blocks until thread `tid` sleeps in epoll_wait. Not a sleep: it spins,
// yielding, on what the kernel says of the thread (the grader's timeout
// bounds it).
inline void wait_until_in_epoll_wait(pid_t tid) {
  while (!is_in_epoll_wait(tid)) std::this_thread::yield();
}

// Blocks until thread `tid` sleeps, in epoll_wait or on a futex (a
// condition variable, a contended mutex), and returns which system call:
// for a thread that has nothing left to do but park, where it parks.
inline long wait_until_asleep(pid_t tid) {
  for (;;) {
    long call = blocked_in(tid);
    if (is_epoll_wait(call) || call == SYS_futex) return call;
    std::this_thread::yield();
  }
}

}  // namespace rt_test

#endif  // RT_HAS_IO
