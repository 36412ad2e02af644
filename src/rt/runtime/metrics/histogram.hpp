//@ file capstone..
// Histogram: how long polls take, counted in buckets. Mirrors Tokio's
// runtime/metrics/histogram.rs (the "legacy" linear and log scales behind
// Builder::metrics_poll_time_histogram_configuration).
//
//   linear: bucket i holds [i * resolution, (i + 1) * resolution)
//   log:    bucket 0 holds [0, resolution), bucket i >= 1 holds
//           [resolution * 2^(i-1), resolution * 2^i)
// and the last bucket, either way, holds everything from its start on.
// Each worker has its own histogram and is its only writer; anyone may read.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "rt/loom.hpp"

namespace rt {

struct HistogramConfig {
  enum class Scale { linear, log };
  Scale scale = Scale::linear;
  std::size_t num_buckets = 10;                        // Tokio's default
  std::chrono::nanoseconds resolution = std::chrono::microseconds(100);  // Tokio's default

  static HistogramConfig linear(std::chrono::nanoseconds resolution, std::size_t buckets) {
    return {Scale::linear, buckets, resolution};
  }
  static HistogramConfig log(std::chrono::nanoseconds resolution, std::size_t buckets) {
    return {Scale::log, buckets, resolution};
  }
};

namespace detail {

class Histogram {
 public:
  explicit Histogram(HistogramConfig config);

  // The bucket a poll of `nanos` nanoseconds goes into.
  std::size_t bucket_of(std::uint64_t nanos) const;
  // The owning worker: one more poll of `nanos`.
  void record(std::uint64_t nanos) {
    counts_[bucket_of(nanos)].fetch_add(1, std::memory_order_relaxed);  // relaxed: a statistic
  }
  std::uint64_t count(std::size_t bucket) const { return counts_[bucket].load(std::memory_order_relaxed); }
  std::size_t num_buckets() const { return config_.num_buckets; }
  // The nanoseconds bucket `bucket` starts at, and ends before (the last
  // one ends at UINT64_MAX: it is unbounded).
  std::pair<std::uint64_t, std::uint64_t> bucket_range(std::size_t bucket) const;

 private:
  std::uint64_t start_of(std::size_t bucket) const;

  HistogramConfig config_;
  std::uint64_t resolution_ns_;
  std::unique_ptr<loom::atomic<std::uint64_t>[]> counts_;
};

}  // namespace detail

}  // namespace rt
