// echo_1, echo_10, echo_100 on Asio: the server is Asio's own coroutine
// echo server (src/examples/cpp20/coroutines/echo_server.cpp: a co_spawn
// per connection, async_read_some, async_write); the clients are
// coroutines on the same io_context, each writing 64 bytes with
// async_write and reading exactly 64 back with async_read. As in
// bench/course/echo.hpp, the connections are opened once, with the pool.
#pragma once

#include <array>
#include <asio.hpp>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "../workloads.hpp"
#include "pool.hpp"

namespace bench::asio_side {

using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;

inline awaitable<void> serve(tcp::socket socket) {
  try {
    std::array<char, 1024> data;
    for (;;) {
      std::size_t n = co_await socket.async_read_some(asio::buffer(data), use_awaitable);
      co_await asio::async_write(socket, asio::buffer(data, n), use_awaitable);
    }
  } catch (const std::exception&) {
    // asio::error::eof: the client closed the connection.
  }
}

inline awaitable<void> accept_connections(tcp::acceptor acceptor, long connections) {
  for (long i = 0; i < connections; ++i) {
    tcp::socket socket = co_await acceptor.async_accept(use_awaitable);
    socket.set_option(tcp::no_delay(true));
    asio::co_spawn(acceptor.get_executor(), serve(std::move(socket)), asio::detached);
  }
}

inline awaitable<void> connect_clients(std::vector<tcp::socket>& clients, tcp::endpoint server, long connections) {
  auto executor = co_await asio::this_coro::executor;
  for (long i = 0; i < connections; ++i) {
    tcp::socket client(executor);
    co_await client.async_connect(server, use_awaitable);
    client.set_option(tcp::no_delay(true));
    clients.push_back(std::move(client));
  }
}

inline awaitable<void> round_trips(tcp::socket& client, long count) {
  std::array<char, echo_message_bytes> message{};
  std::array<char, echo_message_bytes> reply{};
  for (long i = 0; i < count; ++i) {
    message[0] = static_cast<char>(i);
    co_await asio::async_write(client, asio::buffer(message), use_awaitable);
    co_await asio::async_read(client, asio::buffer(reply), use_awaitable);
    if (reply != message) throw std::logic_error("echo sent back other bytes");
  }
}

class Echo : public Workload {
 public:
  Echo(std::string_view workload, Flavour flavour, int workers, Size size)
      : round_trips_each_(echo_round_trips_per_connection(workload, size)), pool_(flavour, workers) {
    long connections = echo_connections(workload);
    tcp::acceptor acceptor(pool_.context(), tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    tcp::endpoint server = acceptor.local_endpoint();
    std::vector<awaitable<void>> setup;
    setup.push_back(accept_connections(std::move(acceptor), connections));
    setup.push_back(connect_clients(clients_, server, connections));
    run(std::move(setup));
  }

  void iteration() override {
    std::vector<awaitable<void>> tasks;
    for (tcp::socket& client : clients_) tasks.push_back(round_trips(client, round_trips_each_));
    run(std::move(tasks));
  }

 private:
  // Spawns each coroutine and returns once all have finished; throws if
  // one of them threw (Asio has no join handle: a Countdown, and a flag).
  void run(std::vector<awaitable<void>> tasks) {
    failed_.store(false, std::memory_order_relaxed);
    done_.arm(static_cast<long>(tasks.size()));
    for (awaitable<void>& task : tasks) {
      asio::co_spawn(pool_.context(), std::move(task), [this](std::exception_ptr error) {
        // relaxed: published by count_down's release, read after the wait.
        if (error) failed_.store(true, std::memory_order_relaxed);
        done_.count_down();
      });
    }
    pool_.drive_until(done_);
    if (failed_.load(std::memory_order_relaxed)) throw std::runtime_error("an echo client or the server failed");
  }

  long round_trips_each_;
  Countdown done_;
  std::atomic<bool> failed_{false};
  Pool pool_;
  std::vector<tcp::socket> clients_;  // declared after the pool: closed before it stops
};

}  // namespace bench::asio_side
