// asio-redis: the capstone's server again, on Asio, with the same protocol
// code and the same command line as rt-redis, to race it.
#include <exception>
#include <fmt/core.h>

#include "capstone/asio/server.hpp"
#include "capstone/command_line.hpp"

int main(int argc, char** argv) {
  redis::CommandLine line =
      redis::parse_command_line(argc, argv, "A Redis-protocol server (RESP2) on Asio, the twin of rt-redis");
  redis::asio_side::ServerConfig config;
  config.bind = line.bind;
  config.workers = line.workers;
  config.current_thread = line.current_thread;
  config.shards = line.shards;
  try {
    redis::asio_side::run_server(config, [](const std::string& address) { redis::print_listening(address); });
  } catch (const std::exception& error) {
    fmt::print(stderr, "asio-redis: {}\n", error.what());
    return 1;
  }
  return 0;
}
