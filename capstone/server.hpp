// The server: accept connections until told to stop, then stop accepting,
// let every connection answer what it has read, and return once all have
// closed. Mirrors mini-redis's server.rs (a Listener whose run loop
// accepts, and a shutdown signal every handler listens to) and the
// graceful shutdown of Tokio's guide (a CancellationToken, and waiting for
// the tasks: here an rt::JoinSet).
//
// In a program of one's own, on a runtime with I/O and timers:
//
//   rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
//   rt::net::SocketAddr address = listener.local_addr();
//   rt::CancellationToken stop;
//   auto server = rt::spawn(redis::serve(std::move(listener), stop));
//   ...                        // talk to `address`
//   stop.cancel();
//   co_await server;           // every connection has closed
//
// or, on a runtime of its own (what main.cpp does):
//
//   redis::run_server(config, stop, [](const rt::net::SocketAddr& a) { ... });
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "capstone/db.hpp"
#include "rt/rt.hpp"

namespace redis {

struct ServeOptions {
  std::size_t shards = Db::default_shards;
  // How long connections get to finish once the server is told to stop;
  // those still open then (a client that never reads its replies) are
  // aborted.
  std::chrono::milliseconds grace = std::chrono::seconds(10);
};

// Serves on `listener` until `stop` is cancelled, then shuts down as above.
rt::Task<> serve(rt::net::TcpListener listener, rt::CancellationToken stop, ServeOptions options = {});

struct ServerConfig {
  std::string bind = "127.0.0.1:6379";
  bool current_thread = false;
  std::size_t workers = 0;  // 0: the runtime's default (the cores, or RT_WORKER_THREADS)
  bool stop_on_signals = true;  // SIGINT and SIGTERM cancel `stop` (rt::signal::ctrl_c)
  ServeOptions serve;
};

// Builds a runtime as `config` says, binds, calls `listening` with the
// address bound (port 0 is given a port), and serves until `stop` is
// cancelled, by the caller from any thread or by a signal. Blocks the
// calling thread; throws what binding throws.
void run_server(const ServerConfig& config, rt::CancellationToken stop,
                const std::function<void(const rt::net::SocketAddr&)>& listening);

}  // namespace redis
