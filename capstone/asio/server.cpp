// The Asio twin's accept loop, purge and shutdown; see server.hpp.
#include "capstone/asio/server.hpp"

#include <asio/experimental/as_tuple.hpp>
#include <csignal>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_set>
#include <vector>

#include "capstone/asio/connection.hpp"

namespace redis::asio_side {

namespace {

using asio::use_awaitable;
using asio::experimental::as_tuple;
using asio::ip::tcp;
using Strand = asio::strand<asio::io_context::executor_type>;

// "host:port" or "[v6]:port", looked up.
tcp::endpoint resolve(asio::io_context& io, const std::string& bind) {
  std::size_t colon = bind.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("--bind wants host:port, not " + bind);
  std::string host = bind.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  tcp::resolver resolver(io);
  return resolver.resolve(host, bind.substr(colon + 1)).begin()->endpoint();
}

std::string to_string(const tcp::endpoint& endpoint) {
  std::string ip = endpoint.address().to_string();
  if (endpoint.address().is_v6()) ip = "[" + ip + "]";
  return ip + ":" + std::to_string(endpoint.port());
}

class Server {
 public:
  Server(std::size_t threads, const ServerConfig& config)
      : shared_(config.shards),
        io_(static_cast<int>(threads)),
        strand_(asio::make_strand(io_)),
        acceptor_(strand_, resolve(io_, config.bind)),
        signals_(strand_, SIGINT, SIGTERM),
        purge_strand_(asio::make_strand(io_)),
        purge_timer_(purge_strand_),
        grace_(strand_),
        grace_period_(config.grace) {
    shared_.db.on_sooner_expiry([this] {
      asio::post(purge_strand_, [this] { purge_timer_.cancel(); });
    });
  }

  std::string address() const { return to_string(acceptor_.local_endpoint()); }

  void run(std::size_t threads) {
    asio::co_spawn(strand_, accept_loop(), asio::detached);
    asio::co_spawn(purge_strand_, purge_loop(), asio::detached);
    signals_.async_wait([this](const asio::error_code& error, int) {
      if (!error) shutdown();
    });
    std::vector<std::thread> others;
    for (std::size_t i = 1; i < threads; ++i) others.emplace_back([this] { io_.run(); });
    io_.run();
    for (std::thread& thread : others) thread.join();
  }

 private:
  asio::awaitable<void> accept_loop() {
    for (;;) {
      // Each connection gets a strand of its own.
      auto [error, socket] = co_await acceptor_.async_accept(asio::make_strand(io_), as_tuple(use_awaitable));
      if (stopping_) co_return;
      if (error) {
        // Out of descriptors (EMFILE), say: wait a little rather than spin.
        std::fprintf(stderr, "asio-redis: accept failed: %s\n", error.message().c_str());
        asio::steady_timer pause(strand_, std::chrono::milliseconds(100));
        co_await pause.async_wait(as_tuple(use_awaitable));
        continue;
      }
      auto connection = std::make_shared<Connection>(std::move(socket), shared_);
      {
        std::lock_guard lock(mutex_);
        connections_.insert(connection);
      }
      asio::co_spawn(connection->executor(), connection->run(), [this, connection](std::exception_ptr failure) {
        if (failure) std::fprintf(stderr, "asio-redis: a connection failed\n");
        closed(connection);
      });
    }
  }

  // The purge task: as the course's (capstone/server.cpp), on a timer
  // that a sooner expiry cancels.
  asio::awaitable<void> purge_loop() {
    while (!purge_stopped_) {
      Instant next = shared_.db.purge_expired(now());
      purge_timer_.expires_at(next == never ? asio::steady_timer::time_point::max()
                                            : asio::steady_timer::time_point(next.time_since_epoch()));
      co_await purge_timer_.async_wait(as_tuple(use_awaitable));
    }
  }

  // On strand_: stop accepting, stop the purge, tell every connection.
  void shutdown() {
    if (stopping_) return;
    stopping_ = true;
    asio::error_code ignored;
    acceptor_.close(ignored);
    asio::post(purge_strand_, [this] {
      purge_stopped_ = true;
      purge_timer_.cancel();
    });
    std::vector<std::shared_ptr<Connection>> open;
    {
      std::lock_guard lock(mutex_);
      open.assign(connections_.begin(), connections_.end());
    }
    for (auto& connection : open) connection->stop();
    if (open.empty()) return;
    grace_.expires_after(grace_period_);
    grace_.async_wait([this](const asio::error_code& error) {
      if (!error) io_.stop();  // some never finished: give up on them
    });
  }

  void closed(const std::shared_ptr<Connection>& connection) {
    bool last = false;
    {
      std::lock_guard lock(mutex_);
      connections_.erase(connection);
      last = connections_.empty();
    }
    if (last) {
      asio::post(strand_, [this] {
        if (stopping_) grace_.cancel();
      });
    }
  }

  // Declared in this order so that the io_context, destroyed before the
  // keyspace, takes its handlers' connections with it first.
  Shared shared_;
  asio::io_context io_;
  Strand strand_;  // the accept loop, the signals and the shutdown
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
  Strand purge_strand_;
  asio::steady_timer purge_timer_;
  bool purge_stopped_ = false;  // on purge_strand_
  asio::steady_timer grace_;
  std::chrono::milliseconds grace_period_;
  bool stopping_ = false;  // on strand_
  std::mutex mutex_;
  std::unordered_set<std::shared_ptr<Connection>> connections_;
};

}  // namespace

void run_server(const ServerConfig& config, const std::function<void(const std::string&)>& listening) {
  std::size_t threads = config.current_thread ? 1 : config.workers;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  Server server(threads, config);
  listening(server.address());
  server.run(threads);
}

}  // namespace redis::asio_side
