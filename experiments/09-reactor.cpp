// Chapter 09's experiment: what the I/O driver adds to a process (E6),
// what happens without it (E2), and an echo server under load.
//
//   build/experiments/09-reactor [--connections N] [--round-trips N]
//                                [--bytes N] [--workers N] [--rounds N]
//
// E6 lists the process's file descriptors (/proc/self/fd) before any
// runtime, with runtimes built without and with enable_io, and after they
// are gone; then its threads (/proc/self/task): a runtime with I/O has no
// I/O thread. Tokio: without I/O, no poller descriptors; with it, the
// poller's (epoll on Linux).
//
// E2 builds a runtime without enable_io and binds a TcpListener in it, then
// binds one outside any runtime, and prints both errors beside Tokio's
// panic messages. Tokio: it fails at run time, not at compile time, with a
// message naming enable_io; outside any runtime, "there is no reactor
// running".
//
// Then an echo server under load: N client tasks, each with its own
// connection to a server task on 127.0.0.1, send a message of 64 bytes and
// read it back, M times; the server and the clients run on the same
// runtime. Round trips per second, for both flavours. Compare figures
// measured in one run, never absolute times from different runs. If no
// round trip completes for 10 s (a lost wake-up, on your own runtime with
// --mine), it says so and stops instead of hanging.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fmt/core.h>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------- E6

// fd -> what it is ("anon_inode:[eventpoll]", "socket:[1234]", "/dev/pts/0").
using Fds = std::map<int, std::string>;

Fds open_fds() {
  Fds fds;
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) throw std::runtime_error("cannot read /proc/self/fd");
  int own = ::dirfd(dir);  // the listing's own descriptor is not the process's
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    int fd = std::stoi(entry->d_name);
    if (fd == own) continue;
    char target[PATH_MAX] = {};
    ssize_t length = ::readlink(fmt::format("/proc/self/fd/{}", fd).c_str(), target, sizeof target - 1);
    fds[fd] = length > 0 ? std::string(target, static_cast<std::size_t>(length)) : "?";
  }
  ::closedir(dir);
  return fds;
}

// "anon_inode:[eventpoll]" stays as it is; "socket:[81234]" loses its inode
// number, which changes from run to run.
std::string kind_of(const std::string& target) {
  if (target.rfind("socket:", 0) == 0) return "socket";
  return target;
}

// The descriptors of `now` that `before` did not have.
std::string added(const Fds& before, const Fds& now) {
  std::vector<std::string> more;
  for (const auto& [fd, target] : now) {
    if (!before.contains(fd)) more.push_back(fmt::format("{} {}", fd, kind_of(target)));
  }
  if (more.empty()) return "none";
  std::string text;
  for (const std::string& one : more) text += (text.empty() ? "" : ", ") + one;
  return text;
}

// Thread names, from /proc/self/task/*/comm.
std::vector<std::string> threads() {
  std::vector<std::string> names;
  DIR* dir = ::opendir("/proc/self/task");
  if (!dir) throw std::runtime_error("cannot read /proc/self/task");
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream comm(fmt::format("/proc/self/task/{}/comm", entry->d_name));
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::map<std::string, int> counts;
  for (const std::string& name : names) ++counts[name];
  std::string text;
  for (const auto& [name, count] : counts) {
    text += (text.empty() ? "" : ", ") + (count > 1 ? fmt::format("{} x {}", count, name) : name);
  }
  return text;
}

// One connection, made and accepted, held open while `fds` is taken.
Fds fds_with_a_connection(rt::Runtime& runtime) {
  return runtime.block_on([]() -> rt::Task<Fds> {
    rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
    auto accepting = rt::spawn([&listener]() -> rt::Task<rt::net::TcpStream> {
      auto [stream, peer] = co_await listener.accept();
      co_return std::move(stream);
    });
    rt::net::TcpStream client = co_await rt::net::TcpStream::connect(listener.local_addr());
    rt::net::TcpStream server = co_await accepting;
    co_return open_fds();
  }());
}

void e6(std::size_t workers) {
  fmt::print("E6: the process's file descriptors (/proc/self/fd)\n\n");
  const Fds before = open_fds();
  std::string baseline;
  for (const auto& [fd, target] : before) {
    baseline += (baseline.empty() ? "" : ", ") + fmt::format("{} {}", fd, kind_of(target));
  }
  fmt::print("  {:<44} {}\n", "before any runtime", baseline);
  fmt::print("  {:<44} {}\n", "", "and, beside those:");
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().build();
    fmt::print("  {:<44} {}\n", "current-thread, without enable_io", added(before, open_fds()));
  }
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().enable_io().build();
    const Fds with_io = open_fds();
    fmt::print("  {:<44} {}\n", "current-thread, enable_io", added(before, with_io));
    fmt::print("  {:<44} {}\n", "  and a listener, a client, an accepted one",
               added(with_io, fds_with_a_connection(runtime)));
  }
  std::string multi = fmt::format("multi-thread ({} workers)", workers);
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
    fmt::print("  {:<44} {}\n", multi + ", without enable_io", added(before, open_fds()));
  }
  std::vector<std::string> threads_with_io;
  {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).enable_io().build();
    const Fds with_io = open_fds();
    fmt::print("  {:<44} {}\n", multi + ", enable_io", added(before, with_io));
    fmt::print("  {:<44} {}\n", "  and a listener, a client, an accepted one",
               added(with_io, fds_with_a_connection(runtime)));
    threads_with_io = threads();
  }
  fmt::print("  {:<44} {}\n", "every runtime gone", added(before, open_fds()));
  fmt::print("\n  Tokio: without I/O, no poller descriptors; with it, the poller's (epoll on Linux)\n\n");

  fmt::print("Threads (/proc/self/task)\n\n");
  fmt::print("  {:<44} {}\n", "before any runtime", joined(threads()));
  fmt::print("  {:<44} {}: {}\n", multi + ", enable_io", threads_with_io.size(), joined(threads_with_io));
  fmt::print("\n  Tokio: no I/O thread; a parking worker that wins the driver's lock drives it\n\n");
}

// ---------------------------------------------------------------------- E2

// What binding a listener throws, or "(no error)".
std::string error_of(const std::function<void()>& bind) {
  try {
    bind();
    return "(no error)";
  } catch (const std::exception& error) {
    return error.what();
  }
}

void bind_a_listener() { (void)rt::net::TcpListener::bind("127.0.0.1:0"); }

void e2(std::size_t workers) {
  fmt::print("E2: a socket without the I/O driver (course: a std::logic_error; Tokio: a panic)\n\n");
  std::string current = error_of([] {
    rt::Runtime runtime = rt::Builder::new_current_thread().build();
    runtime.block_on([]() -> rt::Task<> {
      bind_a_listener();
      co_return;
    }());
  });
  // In a task, on a worker's thread; the task catches what it gets, so
  // that the line shows its error and not the join handle's.
  std::string multi = [workers] {
    rt::Runtime runtime = rt::Builder::new_multi_thread().worker_threads(workers).build();
    return runtime.block_on([]() -> rt::Task<std::string> {
      co_return co_await rt::spawn([]() -> rt::Task<std::string> { co_return error_of(bind_a_listener); }());
    }());
  }();
  std::string outside = error_of(bind_a_listener);
  fmt::print("  a runtime built without enable_io (current-thread, in block_on)\n");
  fmt::print("    course: {}\n", current);
  fmt::print("  the same, multi-thread, in a task on a worker\n");
  fmt::print("    course: {}\n", multi);
  fmt::print("    Tokio:  A Tokio 1.x context was found, but IO is disabled. "
             "Call `enable_io` on the runtime builder to enable IO.\n");
  fmt::print("  outside any runtime\n");
  fmt::print("    course: {}\n", outside);
  fmt::print("    Tokio:  there is no reactor running, must be called from the context of a "
             "Tokio 1.x runtime\n\n");
}

// ---------------------------------------------------------------- echo load

struct Load {
  std::size_t connections;
  long round_trips;  // per connection
  std::size_t bytes;
};

rt::Task<> serve(rt::net::TcpStream stream) {
  std::vector<char> buffer(4096);
  for (;;) {
    std::size_t n = co_await stream.read(buffer);
    if (n == 0) co_return;  // the client closed: end of stream
    co_await stream.write_all(std::string_view(buffer.data(), n));
  }
}

// Round trips done so far, by every client: what the watchdog watches.
std::atomic<long> progress{0};

rt::Task<> client(rt::net::TcpStream stream, long round_trips, std::size_t bytes) {
  std::string message(bytes, 'x');
  std::string reply(bytes, '\0');
  for (long i = 0; i < round_trips; ++i) {
    message[0] = static_cast<char>('a' + i % 26);
    co_await stream.write_all(message);
    co_await stream.read_exact(reply);
    if (reply != message) throw std::logic_error("the echo sent back something else");
    progress.fetch_add(1, std::memory_order_relaxed);  // a count; the watchdog reads it
  }
  stream.shutdown();  // the server reads the end of the stream and returns
}

struct EchoRun {
  double seconds;
  std::uint64_t events;  // the I/O driver's deliveries to sockets
};

// Connects every client first, then times the round trips alone.
EchoRun echo_once(rt::Runtime& runtime, const Load& load) {
  std::uint64_t events_before = runtime.metrics().io_driver_ready_count();
  double seconds = runtime.block_on([](Load load) -> rt::Task<double> {
    rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
    auto accepting = rt::spawn([](rt::net::TcpListener& listener, std::size_t n) -> rt::Task<> {
      std::vector<rt::JoinHandle<void>> servers;
      for (std::size_t i = 0; i < n; ++i) {
        auto [stream, peer] = co_await listener.accept();
        stream.set_nodelay(true);
        servers.push_back(rt::spawn(serve(std::move(stream))));
      }
      for (auto& server : servers) co_await server;
    }(listener, load.connections));
    std::vector<rt::net::TcpStream> streams;
    for (std::size_t i = 0; i < load.connections; ++i) {
      streams.push_back(co_await rt::net::TcpStream::connect(listener.local_addr()));
      streams.back().set_nodelay(true);
    }
    auto start = Clock::now();
    std::vector<rt::JoinHandle<void>> clients;
    for (auto& stream : streams) clients.push_back(rt::spawn(client(std::move(stream), load.round_trips, load.bytes)));
    for (auto& running : clients) co_await running;
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    co_await accepting;
    co_return elapsed;
  }(load));
  return {seconds, runtime.metrics().io_driver_ready_count() - events_before};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Ends the program, saying so, when no round trip completes for `quiet`:
// a runtime that loses a wake-up (your own, with --mine) hangs here rather
// than in silence.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds quiet)
      : thread_([this, quiet](std::stop_token stop) { watch(stop, quiet); }) {}

 private:
  void watch(std::stop_token stop, std::chrono::seconds quiet) {
    std::mutex mutex;
    std::condition_variable_any tick;
    long seen = progress.load(std::memory_order_relaxed);
    auto last_change = Clock::now();
    std::unique_lock lock(mutex);
    while (!stop.stop_requested()) {
      // Woken early only by the stop request, when the echo is over.
      tick.wait_for(lock, stop, std::chrono::milliseconds(200), [] { return false; });
      long now = progress.load(std::memory_order_relaxed);
      if (now != seen) {
        seen = now;
        last_change = Clock::now();
      } else if (Clock::now() - last_change > quiet) {
        std::fflush(stdout);
        fmt::print(stderr,
                   "\necho: no round trip completed for {} s ({} done): a wake-up lost, or a task "
                   "that never yields its worker. Stopping.\n",
                   quiet.count(), now);
        std::_Exit(1);
      }
    }
  }

  std::jthread thread_;
};

void echo_under_load(const Load& load, std::size_t workers, int rounds) {
  Watchdog watchdog(std::chrono::seconds(10));
  fmt::print("An echo server under load: {} connections, {} round trips of {} bytes each, "
             "server and clients on one runtime; median of {} rounds\n\n",
             load.connections, load.round_trips, load.bytes, rounds);
  fmt::print("  {:<26} {:>16} {:>14} {:>16} {:>16}\n", "runtime", "round trips/s", "ns per trip",
             "us per client", "events per trip");
  std::fflush(stdout);
  struct Flavour {
    std::string name;
    std::function<rt::Runtime()> build;
  };
  std::vector<Flavour> flavours = {
      {"current-thread", [] { return rt::Builder::new_current_thread().enable_io().build(); }},
      {fmt::format("multi-thread, {} worker{}", workers, workers == 1 ? "" : "s"),
       [workers] { return rt::Builder::new_multi_thread().worker_threads(workers).enable_io().build(); }},
  };
  double trips = static_cast<double>(load.connections) * static_cast<double>(load.round_trips);
  // Rounds alternate between the flavours, so that the machine's noise
  // hits both alike.
  std::vector<std::vector<double>> seconds(flavours.size());
  std::vector<std::vector<double>> events(flavours.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t f = 0; f < flavours.size(); ++f) {
      rt::Runtime runtime = flavours[f].build();
      EchoRun run = echo_once(runtime, load);
      seconds[f].push_back(run.seconds);
      events[f].push_back(static_cast<double>(run.events));
    }
  }
  for (std::size_t f = 0; f < flavours.size(); ++f) {
    const Flavour& flavour = flavours[f];
    double s = median(seconds[f]);
    fmt::print("  {:<26} {:>16.0f} {:>14.0f} {:>16.1f} {:>16.2f}\n", flavour.name, trips / s, s * 1e9 / trips,
               s * 1e6 / static_cast<double>(load.round_trips), median(events[f]) / trips);
    std::fflush(stdout);
  }
  fmt::print("\n  ns per trip: the run's time over every connection's round trips; us per client:\n"
             "  the same time over one connection's (each client waits for its reply before it\n"
             "  sends again); events per trip: the I/O driver's deliveries to sockets\n"
             "  (io_driver_ready_count) over the round trips\n");
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 09: the I/O driver's descriptors (E6), a socket without it (E2), an echo server"};
  Load load{16, 1000, 64};
  std::size_t workers = 2;
  int rounds = 3;
  cli.positive("--connections", load.connections, "echo: client connections, each its own task");
  cli.positive("--round-trips", load.round_trips, "echo: round trips per connection");
  cli.in_range("--bytes", load.bytes, "echo: bytes per message", std::size_t{1}, std::size_t{4096});
  cli.positive("--workers", workers, "workers of the multi-thread runtimes");
  cli.positive("--rounds", rounds, "echo: rounds per flavour (the median is shown)");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;

  fmt::print("runtime: {}\n\n", EXPERIMENT_RUNTIME);
  e6(workers);
  e2(workers);
  std::fflush(stdout);
  echo_under_load(load, workers, rounds);
  return 0;
}
