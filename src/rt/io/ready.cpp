//@ file reactor..
// Ready's reading of epoll, compiled once per runtime; see ready.hpp.
#include "rt/io/ready.hpp"

#include <sys/epoll.h>

namespace rt::io {

Ready from_epoll(std::uint32_t events) {
  Ready ready = none;
  if (events & (EPOLLIN | EPOLLPRI)) ready = ready | readable;
  if (events & EPOLLOUT) ready = ready | writable;
  // A hang-up closes both directions; EPOLLRDHUP, the peer's shutdown of
  // its writing side, closes only our reading.
  if ((events & EPOLLHUP) || ((events & EPOLLIN) && (events & EPOLLRDHUP))) ready = ready | read_closed;
  if ((events & EPOLLHUP) || ((events & EPOLLOUT) && (events & EPOLLERR)) || events == EPOLLERR) {
    ready = ready | write_closed;
  }
  if (events & EPOLLERR) ready = ready | error;
  return ready;
}

}  // namespace rt::io
