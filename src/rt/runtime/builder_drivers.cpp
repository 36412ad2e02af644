//@ file reactor..
// The builder's options for the drivers, compiled once per runtime; see
// builder.hpp. Tokio's Builder::enable_io, enable_time, enable_all,
// max_io_events_per_tick and start_paused.
#include <stdexcept>

#include "rt/runtime/builder.hpp"
#include "rt/runtime/driver.hpp"

namespace rt {

Builder& Builder::enable_io() {
  enable_io_ = true;
  return *this;
}

Builder& Builder::max_io_events_per_tick(std::size_t events) {
  if (events == 0) throw std::invalid_argument("max_io_events_per_tick must be greater than 0");
  max_io_events_per_tick_ = events;
  return *this;
}

//@ chapters reactor
Builder& Builder::enable_all() { return enable_io(); }
//@ else
Builder& Builder::enable_all() { return enable_io().enable_time(); }

Builder& Builder::enable_time() {
  enable_time_ = true;
  return *this;
}

Builder& Builder::start_paused(bool paused) {
  start_paused_ = paused;
  return *this;
}
//@ end

detail::DriverConfig Builder::driver_config(bool current_thread) const {
  detail::DriverConfig config;
  config.enable_io = enable_io_;
  config.max_io_events_per_tick = max_io_events_per_tick_;
//@ chapters reactor
  (void)current_thread;
//@ else
  if (start_paused_ && !current_thread) {
    throw std::invalid_argument("start_paused: the clock can be paused on a current-thread runtime only");
  }
  config.enable_time = enable_time_;
  config.start_paused = start_paused_;
  config.pausable = current_thread;
//@ end
  return config;
}

}  // namespace rt
