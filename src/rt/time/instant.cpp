//@ file timers..
// Instant::now on the current runtime's clock, compiled once per runtime;
// see instant.hpp.
#include "rt/time/instant.hpp"

#include "rt/runtime/context.hpp"
#include "rt/runtime/driver.hpp"

namespace rt::time {

Instant Instant::now() {
  const auto& handle = rt::detail::runtime_context.handle;
  if (handle) {
    if (rt::detail::Driver* driver = handle->driver(); driver && driver->time()) {
      return driver->time()->clock().now();
    }
  }
  return Instant(Clock::now());
}

}  // namespace rt::time
