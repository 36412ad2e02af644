// rt-redis: the capstone's Redis-protocol server on the course's runtime.
// SIGINT or SIGTERM stops it gracefully: it stops accepting, answers what
// its connections have sent, and exits 0 once they have closed.
#include <exception>
#include <fmt/core.h>

#include "capstone/command_line.hpp"
#include "capstone/server.hpp"

int main(int argc, char** argv) {
  redis::CommandLine line = redis::parse_command_line(
      argc, argv, "A Redis-protocol server (RESP2) on the course's runtime");
  redis::ServerConfig config;
  config.bind = line.bind;
  config.workers = line.workers;
  config.current_thread = line.current_thread;
  config.serve.shards = line.shards;
  try {
    redis::run_server(config, rt::CancellationToken(),
                      [](const rt::net::SocketAddr& address) { redis::print_listening(address.to_string()); });
  } catch (const std::exception& error) {
    fmt::print(stderr, "rt-redis: {}\n", error.what());
    return 1;
  }
  return 0;
}
