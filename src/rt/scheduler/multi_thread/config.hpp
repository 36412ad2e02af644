//@ file threads..
// MultiThreadConfig: what the builder hands the multi-thread scheduler.
// Mirrors the scheduler's part of Tokio's runtime/config.rs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
//@ chapters reactor..

#include "rt/runtime/driver.hpp"
//@ end

namespace rt::detail {

struct MultiThreadConfig {
  std::size_t workers = 1;
  std::string thread_name = "rt-worker";
  // Builder::global_queue_interval's; unset, each worker tunes its own
  // (from chapter 05 on: stats.hpp).
  std::optional<std::uint32_t> global_queue_interval;
  std::uint32_t event_interval = 61;
//@ chapters lifo-slot..
  bool disable_lifo_slot = false;
//@ end
//@ chapters reactor..
  DriverConfig driver;
//@ end
};

}  // namespace rt::detail
