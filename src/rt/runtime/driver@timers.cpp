// The runtime's driver, compiled once per runtime; see driver.hpp.
#include "rt/runtime/driver.hpp"

#include <stdexcept>

#include "rt/runtime/context.hpp"

namespace rt::detail {

Driver::Driver(const DriverConfig& config)
    : io_enabled_(config.enable_io),
      pausable_(config.pausable),
      io_(std::make_shared<IoDriver>(config.max_io_events_per_tick)) {
  if (config.enable_time) time_ = std::make_shared<TimeDriver>(io_, config.start_paused);
}

std::unique_ptr<Driver> make_driver(const DriverConfig& config) {
  if (!config.enable_io && !config.enable_time) return nullptr;
  return std::make_unique<Driver>(config);
}

void Driver::park() {
  if (time_) time_->park(-1);
  else io_->turn(-1);
}

void Driver::poll() {
  if (!try_lock()) return;  // somebody else is in it, and dispatches
  struct Unlock {
    Driver* self;
    ~Unlock() { self->unlock(); }
  } unlock{this};
  if (time_) time_->park(0);
  else io_->turn(0);
}

//@ chapters capstone..
SignalDriver& Driver::signal() {
  std::call_once(signal_made_, [this] { signal_ = std::make_unique<SignalDriver>(io_); });
  return *signal_;
}

//@ end
void Driver::shutdown() {
  if (time_) time_->shutdown();
  io_->shutdown();
}

namespace {

Driver& current_driver(const char* disabled) {
  const std::shared_ptr<SchedulerHandle>& handle = runtime_context.handle;
  if (!handle) {
    throw std::logic_error("there is no reactor running, must be called from the context of a runtime");
  }
  Driver* driver = handle->driver();
  if (!driver) throw std::logic_error(disabled);
  return *driver;
}

constexpr const char* io_disabled =
    "A runtime was found, but IO is disabled. Call `enable_io` on the runtime builder to enable IO.";
constexpr const char* time_disabled =
    "A runtime was found, but timers are disabled. Call `enable_time` on the runtime builder to enable "
    "timers.";

}  // namespace

const std::shared_ptr<IoDriver>& current_io_driver() {
  Driver& driver = current_driver(io_disabled);
  if (!driver.io()) throw std::logic_error(io_disabled);
  return driver.io_shared();
}

const std::shared_ptr<TimeDriver>& current_time_driver() {
  Driver& driver = current_driver(time_disabled);
  if (!driver.time()) throw std::logic_error(time_disabled);
  return driver.time();
}

}  // namespace rt::detail
