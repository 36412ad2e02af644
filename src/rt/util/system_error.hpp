//@ file reactor..
// throw_last_os_error: a failed system call (epoll, eventfd, a socket, a
// signalfd) becomes a std::system_error carrying errno and the call's name.
// Tokio's io::Error::last_os_error().
#pragma once

#include <cerrno>
#include <system_error>

namespace rt::detail {

[[noreturn]] inline void throw_last_os_error(const char* call) {
  throw std::system_error(errno, std::system_category(), call);
}

}  // namespace rt::detail
