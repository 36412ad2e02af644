//@ file threads..
// The builder, compiled once per runtime: chapter 04's options and
// build(); see builder.hpp. Later chapters' options are in files of
// their own (builder_*.cpp).
#include "rt/runtime/builder.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "rt/runtime.hpp"
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
  if (kind_ == Kind::CurrentThread) {
//@ chapters ..coop
    auto scheduler = std::make_shared<detail::CurrentThread>(event_interval_);
//@ else
    auto scheduler = std::make_shared<detail::CurrentThread>(driver_config(true), event_interval_);
//@ end
//@ chapters blocking..
    set_up(*scheduler, /*current_thread=*/true, 1);
//@ end
    return Runtime(std::move(scheduler));
  }
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
  auto scheduler = std::make_shared<detail::MultiThread>(std::move(config));
//@ chapters blocking..
  set_up(*scheduler, /*current_thread=*/false, scheduler->num_workers());
//@ end
  scheduler->start();
  return Runtime(std::move(scheduler));
}

}  // namespace rt
