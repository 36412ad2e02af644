// The command line both servers share (rt-redis and asio-redis), so that
// a benchmark starts either the same way:
//
//   rt-redis [--bind 127.0.0.1:6379] [--workers N] [--current-thread] [--shards N]
//
// Once bound, a server prints one line, `listening on 127.0.0.1:PORT`, so
// that whoever started it with port 0 learns the port.
#pragma once

#include <cstddef>
#include <string>

#include "capstone/db.hpp"

namespace redis {

struct CommandLine {
  std::string bind = "127.0.0.1:6379";
  std::size_t workers = 0;  // 0: the runtime's default
  bool current_thread = false;
  std::size_t shards = Db::default_shards;
};

// Parses the command line; on --help or a mistake, prints and exits.
CommandLine parse_command_line(int argc, char** argv, const std::string& description);

// Prints the line that says where the server listens, and flushes it.
void print_listening(const std::string& address);

}  // namespace redis
