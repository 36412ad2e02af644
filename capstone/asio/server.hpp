// The Asio twin's server: the same accept loop, purge task and graceful
// shutdown as the course's (capstone/server.hpp), written with Asio: an
// io_context run on N threads, a strand per connection, a signal_set for
// SIGINT and SIGTERM, timers for the purge and for the grace period.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "capstone/db.hpp"

namespace redis::asio_side {

struct ServerConfig {
  std::string bind = "127.0.0.1:6379";
  bool current_thread = false;  // the io_context runs on the caller's thread alone
  std::size_t workers = 0;      // threads running the io_context; 0: the cores
  std::size_t shards = Db::default_shards;
  std::chrono::milliseconds grace = std::chrono::seconds(10);  // for connections to finish, once stopping
};

// Binds, calls `listening` with the address bound, and serves until SIGINT
// or SIGTERM; then stops accepting, lets every connection answer what it
// has read, and returns once all have closed. Throws what binding throws.
void run_server(const ServerConfig& config, const std::function<void(const std::string&)>& listening);

}  // namespace redis::asio_side
