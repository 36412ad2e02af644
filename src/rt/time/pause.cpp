//@ file timers..
// Pausing and advancing the runtime's clock, compiled once per runtime;
// see rt/time.hpp.
#include <stdexcept>

#include "rt/runtime/context.hpp"
#include "rt/runtime/driver.hpp"
#include "rt/time.hpp"
#include "rt/task/yield_now.hpp"

namespace rt::time {

namespace {

rt::detail::TimeDriver& pausable_time_driver() {
  const std::shared_ptr<rt::detail::TimeDriver>& driver = rt::detail::current_time_driver();
  if (!rt::detail::runtime_context.handle->driver()->pausable()) {
    throw std::logic_error("`time::pause()` requires the current-thread runtime (rt::Builder::new_current_thread())");
  }
  return *driver;
}

}  // namespace

void pause() { pausable_time_driver().clock().pause(); }

void resume() { pausable_time_driver().clock().resume(); }

Task<> advance(Duration duration) {
  rt::detail::TimeDriver& driver = pausable_time_driver();
  driver.clock().advance(duration);
  driver.process_at(driver.now_tick());
  co_await yield_now();  // the tasks just woken run first
}

}  // namespace rt::time
