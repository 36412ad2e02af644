//@ file reactor
// The runtime's driver, compiled once per runtime; see driver.hpp.
#include "rt/runtime/driver.hpp"

#include <stdexcept>

#include "rt/runtime/context.hpp"

namespace rt::detail {

Driver::Driver(const DriverConfig& config)
    : io_(std::make_shared<IoDriver>(config.max_io_events_per_tick)) {}

std::unique_ptr<Driver> make_driver(const DriverConfig& config) {
  if (!config.enable_io) return nullptr;
  return std::make_unique<Driver>(config);
}

//@ listing driver_poll
void Driver::poll() {
  if (!try_lock()) return;  // somebody else is in it, and dispatches
  struct Unlock {
    Driver* self;
    ~Unlock() { self->unlock(); }
  } unlock{this};
  io_->turn(0);
}

const std::shared_ptr<IoDriver>& current_io_driver() {
  const std::shared_ptr<SchedulerHandle>& handle = runtime_context.handle;
  if (!handle) {
    throw std::logic_error(
        "there is no reactor running, must be called from the context of a runtime");
  }
  Driver* driver = handle->driver();
  if (!driver) {
    throw std::logic_error(
        "A runtime was found, but IO is disabled. Call `enable_io` on the runtime builder to "
        "enable IO.");
  }
  return driver->io();
}
//@ listing-end driver_poll

}  // namespace rt::detail
