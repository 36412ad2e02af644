// Chapter 12's experiments, on a request/response server over loopback.
//
//   build/experiments/12-capstone [--clients N] [--requests N] [--workers N]
//
// E11: the share of polls that were steals under load, and what one
// CPU-heavy request type does to it. Tokio's figure: in a production
// service at 50,000 requests/s, steals were about 3% of task runs; one
// CPU-heavy handler raised that to 18%, and the other requests' latency
// with it.
// E10: as many workers as cores against twice as many, on the same load.
// Tokio's figure: on a 16-core machine, 32 workers were 11% slower than 16.
//
// Each client sends a 16-byte request and waits for the 16-byte answer,
// `requests` times; a heavy request (1 in `heavy_every`) spins for
// `heavy_us` before answering. Clients run on a runtime of their own, so
// the server's workers do only the server's work. Times are wall-clock:
// compare the rows of one run, never runs of different days.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <fmt/core.h>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "rt/rt.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t frame = 16;

struct Load {
  std::size_t clients = 50;
  std::size_t requests = 2000;
  std::size_t heavy_every = 0;  // 0: none
  std::chrono::microseconds heavy = std::chrono::microseconds(500);
};

void spin(std::chrono::microseconds duration) {
  auto until = Clock::now() + duration;
  while (Clock::now() < until) {
  }
}

rt::Task<> serve_connection(rt::net::TcpStream stream, Load load) {
  char buffer[frame];
  try {
    for (;;) {
      co_await stream.read_exact(std::span<char>(buffer, frame));
      if (buffer[0] == 'H') spin(load.heavy);  // the CPU-heavy command
      co_await stream.write_all(std::string_view(buffer, frame));
    }
  } catch (const rt::net::UnexpectedEof&) {
    // the client is done
  }
}

rt::Task<> accept_loop(rt::net::TcpListener& listener, Load load, rt::CancellationToken stop) {
  rt::JoinSet<void> connections;
  for (;;) {
    auto accept = listener.accept();
    auto stopped = stop.cancelled();
    if (co_await rt::select(accept, stopped) == 1) break;
    rt::net::TcpStream stream = accept.await_resume().first;
    stream.set_nodelay(true);
    connections.spawn(serve_connection(std::move(stream), load));
  }
  while (co_await connections.join_next()) {
  }
}

rt::Task<> client(rt::net::SocketAddr address, Load load, std::size_t id) {
  rt::net::TcpStream stream = co_await rt::net::TcpStream::connect(address);
  stream.set_nodelay(true);
  char request[frame] = {};
  char answer[frame];
  for (std::size_t i = 0; i < load.requests; ++i) {
    bool heavy = load.heavy_every && (id * load.requests + i) % load.heavy_every == 0;
    request[0] = heavy ? 'H' : 'L';
    co_await stream.write_all(std::string_view(request, frame));
    co_await stream.read_exact(std::span<char>(answer, frame));
  }
}

rt::Task<> all_clients(rt::net::SocketAddr address, Load load) {
  rt::JoinSet<void> clients;
  for (std::size_t id = 0; id < load.clients; ++id) clients.spawn(client(address, load, id));
  while (co_await clients.join_next()) {
  }
}

struct Result {
  double seconds;
  std::uint64_t polls;
  std::uint64_t steals;
  std::uint64_t steal_operations;
};

Result run(std::size_t workers, Load load) {
  rt::Runtime server = rt::Builder::new_multi_thread().worker_threads(workers).enable_all().build();
  rt::net::TcpListener listener = server.block_on([]() -> rt::Task<rt::net::TcpListener> {
    co_return rt::net::TcpListener::bind(rt::net::SocketAddr("127.0.0.1:0"));
  }());
  rt::net::SocketAddr address = listener.local_addr();
  rt::CancellationToken stop;
  rt::JoinHandle<void> serving = server.spawn(accept_loop(listener, load, stop));

  rt::Runtime clients = rt::Builder::new_multi_thread().worker_threads(2).enable_all().build();
  rt::RuntimeMetrics metrics = server.metrics();
  auto before = [&] {
    Result r{0, 0, 0, 0};
    for (std::size_t w = 0; w < metrics.num_workers(); ++w) {
      r.polls += metrics.worker_poll_count(w);
      r.steals += metrics.worker_steal_count(w);
      r.steal_operations += metrics.worker_steal_operations(w);
    }
    return r;
  };
  Result start = before();
  auto t0 = Clock::now();
  clients.block_on(all_clients(address, load));
  auto t1 = Clock::now();
  Result end = before();
  stop.cancel();
  server.block_on([](rt::JoinHandle<void> handle) -> rt::Task<> { co_await handle; }(std::move(serving)));
  return {std::chrono::duration<double>(t1 - t0).count(), end.polls - start.polls, end.steals - start.steals,
          end.steal_operations - start.steal_operations};
}

void report(const char* what, const Result& r, std::size_t requests) {
  fmt::print("  {:<34} {:>9.0f} req/s  polls {:>9}  stolen tasks {:>7} ({:>5.1f}% of polls)\n", what,
             static_cast<double>(requests) / r.seconds, r.polls, r.steals,
             r.polls ? 100.0 * static_cast<double>(r.steals) / static_cast<double>(r.polls) : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  experiments::CommandLine cli{"Chapter 12, E10 and E11: workers against cores, and the steal share under load"};
  Load load;
  std::size_t cores = std::thread::hardware_concurrency() ? std::thread::hardware_concurrency() : 1;
  std::size_t workers = cores;
  std::size_t heavy_us = 500;
  cli.positive("--clients", load.clients, "connections");
  cli.positive("--requests", load.requests, "requests per connection");
  cli.positive("--workers", workers, "the server's workers for E11 (default: the cores)");
  cli.positive("--heavy-us", heavy_us, "how long a heavy request spins (500)");
  if (std::optional<int> done = cli.parse(argc, argv)) return *done;
  load.heavy = std::chrono::microseconds(heavy_us);
  std::size_t requests = load.clients * load.requests;

  fmt::print("Chapter 12 on {} ({} cores), {} clients x {} requests of {} bytes, over 127.0.0.1\n",
             EXPERIMENT_RUNTIME, cores, load.clients, load.requests, frame);
  fmt::print("\nE11: steals under load, {} workers\n", workers);
  report("every request light", run(workers, load), requests);
  Load mixed = load;
  mixed.heavy_every = 100;
  report(fmt::format("1 in 100 spins {} us", heavy_us).c_str(), run(workers, mixed), requests);
  fmt::print("  Tokio's: about 3% of task runs were steals; one CPU-heavy handler raised it to 18%.\n");

  fmt::print("\nE10: workers = cores against twice the cores\n");
  Result same = run(cores, load);
  Result twice = run(2 * cores, load);
  report(fmt::format("{} workers", cores).c_str(), same, requests);
  report(fmt::format("{} workers", 2 * cores).c_str(), twice, requests);
  fmt::print("  twice the cores took {:.2f}x the time of as many as the cores (Tokio's: 1.11x on 16 cores)\n",
             twice.seconds / same.seconds);
}
