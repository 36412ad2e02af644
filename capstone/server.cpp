// The accept loop, the purge task and the shutdown; see server.hpp.
#include "capstone/server.hpp"

#include <csignal>
#include <cstdio>
#include <optional>
#include <system_error>

#include "capstone/connection.hpp"

namespace redis {

namespace {

using namespace std::chrono_literals;

// Removes expired keys in the background, as mini-redis's
// purge_expired_tasks does: sleep until the next key expires, or until a
// key is given a sooner expiry. Lazy expiry keeps every read right; this
// frees the memory of keys nobody reads again.
rt::Task<> purge_expired_keys(std::shared_ptr<ServerState> state) {
  for (;;) {
    Instant next = state->shared.db.purge_expired(now());
    // A notify_one() since the purge began left a permit: this wait
    // returns at once, and the purge runs again.
    auto sooner = state->purge.notified();
    if (next == never) {
      co_await sooner;
      continue;
    }
    auto due = rt::time::sleep_until(rt::time::Instant(std::chrono::steady_clock::time_point(next.time_since_epoch())));
    co_await rt::select(due, sooner);
  }
}

// A connection that finished leaves the set (its own errors ended it alone).
void reap(rt::JoinSet<void>::JoinNext& finished) {
  try {
    finished.await_resume();
  } catch (const rt::JoinError&) {
    // aborted: nothing to report
  }
}

// Waits for every connection to close, for `grace` at most; then aborts
// those left.
rt::Task<> drain(rt::JoinSet<void>& connections, std::chrono::milliseconds grace) {
  auto deadline = rt::time::sleep(grace);
  while (!connections.is_empty()) {
    auto finished = connections.join_next();
    if (co_await rt::select(finished, deadline) == 1) break;
    reap(finished);
  }
  co_await connections.shutdown();
}

}  // namespace

rt::Task<> serve(rt::net::TcpListener bound, rt::CancellationToken stop, ServeOptions options) {
  auto state = std::make_shared<ServerState>(options.shards);
  rt::JoinHandle<void> purge = rt::spawn(purge_expired_keys(state));
  std::optional<rt::net::TcpListener> listener(std::move(bound));
  rt::JoinSet<void> connections;
  auto stopped = stop.cancelled();
  for (;;) {
    // Accept, and take finished connections out of the set as they end,
    // so that it holds only those still open. `stopped` is polled first,
    // so that a flood of connections cannot keep the server from
    // stopping, and the finished before a new one: the set stays as small
    // as the connections open.
    auto accept = listener->accept();
    if (connections.is_empty()) {
      if (co_await rt::select(stopped, accept) == 0) break;
    } else {
      auto finished = connections.join_next();
      auto work = rt::select(finished, accept);
      if (co_await rt::select(stopped, work) == 0) break;
      if (work.await_resume() == 0) {
        reap(finished);
        continue;
      }
    }
    bool failed = false;
    try {
      auto [stream, peer] = accept.await_resume();
      connections.spawn(serve_connection(std::move(stream), state, stop.child_token()));
    } catch (const std::system_error& error) {
      std::fprintf(stderr, "rt-redis: accept failed: %s\n", error.what());
      failed = true;
    }
    // Out of descriptors (EMFILE), say: the pending connection stays
    // queued, so wait a little rather than spin on it.
    if (failed) co_await rt::time::sleep(100ms);
  }
  listener.reset();  // from now on a new connection is refused
  co_await drain(connections, options.grace);
  purge.abort();
  try {
    co_await purge;
  } catch (const rt::JoinError&) {
    // aborted, as asked
  }
}

namespace {

rt::Task<> bind_and_serve(const ServerConfig& config, rt::CancellationToken stop,
                          const std::function<void(const rt::net::SocketAddr&)>& listening) {
  // Listen for the signals before saying where the server listens: a
  // SIGTERM sent as soon as the address is known must stop it, not kill it.
  std::optional<rt::signal::Signal> signals;
  if (config.stop_on_signals) signals.emplace(std::initializer_list<int>{SIGINT, SIGTERM});
  rt::net::TcpListener listener = rt::net::TcpListener::bind(co_await rt::net::lookup_host(config.bind));
  listening(listener.local_addr());
  rt::JoinHandle<void> server = rt::spawn(serve(std::move(listener), stop, config.serve));
  if (signals) {
    auto stopped = stop.cancelled();
    if (co_await rt::select(stopped, *signals) == 1) stop.cancel();
  }
  co_await server;
}

}  // namespace

void run_server(const ServerConfig& config, rt::CancellationToken stop,
                const std::function<void(const rt::net::SocketAddr&)>& listening) {
  rt::Builder builder = config.current_thread ? rt::Builder::new_current_thread() : rt::Builder::new_multi_thread();
  if (!config.current_thread && config.workers > 0) builder.worker_threads(config.workers);
  rt::Runtime runtime = builder.enable_all().build();
  runtime.block_on(bind_and_serve(config, std::move(stop), listening));
}

}  // namespace redis
