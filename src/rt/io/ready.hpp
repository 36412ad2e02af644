//@ file reactor..
// Ready: what a socket is ready for, as bits. Mirrors Tokio's io/ready.rs
// and the Direction of runtime/io/scheduled_io.rs.
//
// epoll reports readiness as EPOLLIN, EPOLLOUT, EPOLLRDHUP...; the driver
// turns each event into these bits once (from_epoll), and everything
// else speaks Ready. A task waits in one direction: a reader for
// `readable` or `read_closed`, a writer for `writable` or `write_closed`;
// an error wakes both, so that each gets it from its next system call.
#pragma once

#include <cstdint>

namespace rt::io {

enum Ready : std::uint32_t {
  none = 0,
  readable = 1,
  writable = 2,
  read_closed = 4,   // the peer will send nothing more (end of stream)
  write_closed = 8,  // nothing more can be sent (the peer reset, or we shut down)
  error = 32,
};

constexpr Ready operator|(Ready a, Ready b) { return Ready(std::uint32_t(a) | std::uint32_t(b)); }
constexpr Ready operator&(Ready a, Ready b) { return Ready(std::uint32_t(a) & std::uint32_t(b)); }
constexpr Ready operator~(Ready a) { return Ready(~std::uint32_t(a) & 0xffffu); }

// Bits that, once set, stay set: a closed direction never reopens.
inline constexpr Ready closed = read_closed | write_closed;

enum class Direction { read, write };

// The bits that let a task waiting in `direction` go on.
constexpr Ready mask(Direction direction) {
  return direction == Direction::read ? (readable | read_closed | error)
                                      : (writable | write_closed | error);
}

// The bits of one epoll event (mio's reading of epoll, which Tokio uses).
Ready from_epoll(std::uint32_t events);

}  // namespace rt::io
