//@ file threads..
// The builder and the Runtime's non-template half, compiled once per
// runtime; see builder.hpp and rt/runtime.hpp.
#include "rt/runtime/builder.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>

//@ chapters blocking..
#include "rt/blocking/pool.hpp"
//@ end
#include "rt/runtime.hpp"
//@ chapters reactor..
#include "rt/runtime/driver.hpp"
//@ end
#include "rt/scheduler/current_thread.hpp"
#include "rt/scheduler/multi_thread/worker.hpp"

namespace rt {

Builder& Builder::worker_threads(std::size_t count) {
  if (count == 0) throw std::invalid_argument("worker_threads: a runtime needs at least 1 worker thread");
  worker_threads_ = count;
  return *this;
}

Builder& Builder::thread_name(std::string name) {
  thread_name_ = std::move(name);
  return *this;
}

Builder& Builder::global_queue_interval(std::uint32_t ticks) {
  if (ticks == 0) throw std::invalid_argument("global_queue_interval must be greater than 0");
  global_queue_interval_ = ticks;
  return *this;
}

Builder& Builder::event_interval(std::uint32_t ticks) {
  if (ticks == 0) throw std::invalid_argument("event_interval must be greater than 0");
  event_interval_ = ticks;
  return *this;
}

//@ chapters reactor..
Builder& Builder::enable_io() {
  enable_io_ = true;
  return *this;
}

//@ end
//@ chapters reactor
Builder& Builder::enable_all() { return enable_io(); }
//@ end
//@ chapters timers..
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
//@ chapters reactor..

Builder& Builder::max_io_events_per_tick(std::size_t events) {
  if (events == 0) throw std::invalid_argument("max_io_events_per_tick must be greater than 0");
  max_io_events_per_tick_ = events;
  return *this;
}

//@ end
//@ chapters blocking..
Builder& Builder::max_blocking_threads(std::size_t count) {
  if (count == 0) throw std::invalid_argument("max_blocking_threads must be greater than 0");
  max_blocking_threads_ = count;
  return *this;
}

Builder& Builder::thread_keep_alive(std::chrono::nanoseconds duration) {
  thread_keep_alive_ = duration;
  return *this;
}

detail::BlockingConfig Builder::blocking_config(std::size_t workers) const {
  // The worker loops are the pool's jobs too: Tokio's cap is
  // max_blocking_threads + worker_threads.
  return {max_blocking_threads_ + workers, thread_keep_alive_, thread_name_};
}

//@ end
//@ chapters lifo-slot..
Builder& Builder::disable_lifo_slot() {
  disable_lifo_slot_ = true;
  return *this;
}

//@ end
//@ listing default_worker_threads
std::size_t Builder::default_worker_threads() {
  if (const char* value = std::getenv("RT_WORKER_THREADS")) {
    std::string_view text(value);
    std::size_t count = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error != std::errc() || end != text.data() + text.size() || count == 0) {
      throw std::invalid_argument("RT_WORKER_THREADS must be a positive integer, not \"" +
                                  std::string(text) + "\"");
    }
    return count;
  }
  unsigned cores = std::thread::hardware_concurrency();  // 0 when unknown
  return cores == 0 ? 1 : cores;
}
//@ listing-end default_worker_threads

Runtime Builder::build() {
//@ chapters ..coop
  if (kind_ == Kind::CurrentThread) return Runtime(std::make_shared<detail::CurrentThread>(event_interval_));
//@ end
//@ chapters reactor..
  if (kind_ == Kind::CurrentThread) {
    auto scheduler = std::make_shared<detail::CurrentThread>(driver_config(true), event_interval_);
//@ end
//@ chapters blocking..
    scheduler->set_blocking_pool(blocking_config(0));
//@ end
//@ chapters capstone..
    scheduler->set_instruments(instruments_config(true), 1);
//@ end
//@ chapters reactor..
    return Runtime(std::move(scheduler));
  }
//@ end
  detail::MultiThreadConfig config;
  config.workers = worker_threads_ ? *worker_threads_ : default_worker_threads();
  config.thread_name = thread_name_;
  config.global_queue_interval = global_queue_interval_;
  config.event_interval = event_interval_;
//@ chapters lifo-slot..
  config.disable_lifo_slot = disable_lifo_slot_;
//@ end
//@ chapters reactor..
  config.driver = driver_config(false);
//@ end
//@ chapters blocking..
  detail::BlockingConfig blocking = blocking_config(config.workers);
//@ end
  auto scheduler = std::make_shared<detail::MultiThread>(std::move(config));
//@ chapters blocking..
  scheduler->set_blocking_pool(std::move(blocking));
//@ end
//@ chapters capstone..
  scheduler->set_instruments(instruments_config(false), scheduler->num_workers());
//@ end
  scheduler->start();
  return Runtime(std::move(scheduler));
}

//@ chapters reactor..
detail::DriverConfig Builder::driver_config(bool current_thread) const {
  detail::DriverConfig config;
  config.enable_io = enable_io_;
  config.max_io_events_per_tick = max_io_events_per_tick_;
//@ end
//@ chapters reactor
  (void)current_thread;
//@ end
//@ chapters timers..
  if (start_paused_ && !current_thread) {
    throw std::invalid_argument("start_paused: the clock can be paused on a current-thread runtime only");
  }
  config.enable_time = enable_time_;
  config.start_paused = start_paused_;
  config.pausable = current_thread;
//@ end
//@ chapters reactor..
  return config;
}

//@ end
Runtime::Runtime() : Runtime(std::make_shared<detail::CurrentThread>()) {}

Runtime& Runtime::operator=(Runtime&& other) noexcept {
  if (this != &other) {
    shutdown();
    handle_ = std::move(other.handle_);
  }
  return *this;
}

Runtime::~Runtime() { shutdown(); }

//@ chapters ..timers
void Runtime::shutdown() {
//@ else
void Runtime::shutdown(std::optional<std::chrono::nanoseconds> timeout) {
//@ end
//@ chapters ..coop
  if (handle_.scheduler_) std::exchange(handle_.scheduler_, nullptr)->shutdown();
//@ else
  if (!handle_.scheduler_) return;
  std::shared_ptr<detail::SchedulerHandle> scheduler = std::exchange(handle_.scheduler_, nullptr);
  scheduler->shutdown();         // no task runs any more
  scheduler->shutdown_driver();  // and no socket waits any more
//@ end
//@ chapters blocking..
  scheduler->shutdown_blocking_pool(timeout);  // and no blocking job, but those past the timeout
//@ end
//@ chapters capstone..
  scheduler->instruments().finish();  // the trace, once no worker runs
//@ end
}

}  // namespace rt
