//@ file capstone..
// The poll-time histogram, compiled once per runtime; see histogram.hpp.
#include "rt/loom.hpp"
#include "rt/runtime/metrics/histogram.hpp"

#include <bit>
#include <limits>
#include <stdexcept>

#include "rt/todo.hpp"

namespace rt::detail {

Histogram::Histogram(HistogramConfig config)
    : config_(config),
      resolution_ns_(static_cast<std::uint64_t>(config.resolution.count())),
      counts_(std::make_unique<loom::atomic<std::uint64_t>[]>(config.num_buckets)) {
  if (config.num_buckets < 1) throw std::invalid_argument("a histogram needs at least one bucket");
  if (resolution_ns_ < 1) throw std::invalid_argument("a histogram's resolution must be at least 1 ns");
  // The last bucket must start where 64 bits still reach.
  if (config.scale == HistogramConfig::Scale::log && config.num_buckets > 64) {
    throw std::invalid_argument("a log-scale histogram has at most 64 buckets");
  }
}

//@ listing bucket_of
std::size_t Histogram::bucket_of(std::uint64_t nanos) const {
  //@ exercise capstone bucket_of
  std::size_t last = config_.num_buckets - 1;
  std::uint64_t units = nanos / resolution_ns_;  // whole resolutions
  std::size_t bucket;
  if (config_.scale == HistogramConfig::Scale::linear) {
    bucket = units > last ? last : static_cast<std::size_t>(units);
  } else {
    // [r * 2^(i-1), r * 2^i) is bucket i: i is the bit width of `units`.
    //@ mutant capstone bucket_of_off_by_one: takes the highest set bit's index for the bucket, so a poll of exactly one resolution lands in bucket 0
    bucket = static_cast<std::size_t>(std::bit_width(units));
    //@ instead
    bucket = units == 0 ? 0 : static_cast<std::size_t>(std::bit_width(units) - 1);
    //@ end
    if (bucket > last) bucket = last;
  }
  return bucket;
  //@ starter
  // TODO: the bucket of a poll that took `nanos` nanoseconds. With r the
  // resolution (resolution_ns_) and n the buckets (config_.num_buckets):
  //  - linear: bucket i holds [i*r, (i+1)*r);
  //  - log: bucket 0 holds [0, r), bucket i >= 1 holds [r*2^(i-1), r*2^i);
  //  - either way the last bucket also holds everything above it.
  // Hint: in log scale, how does the bucket of nanos/r relate to the
  // number of bits it takes to write nanos/r (std::bit_width)?
  (void)nanos;
  throw Todo("@NN@ bucket_of (@FILE@)");
  //@ end
}
//@ listing-end bucket_of

std::uint64_t Histogram::start_of(std::size_t bucket) const {
  if (config_.scale == HistogramConfig::Scale::linear) return resolution_ns_ * bucket;
  return bucket == 0 ? 0 : resolution_ns_ << (bucket - 1);
}

std::pair<std::uint64_t, std::uint64_t> Histogram::bucket_range(std::size_t bucket) const {
  std::uint64_t end = bucket + 1 == config_.num_buckets ? std::numeric_limits<std::uint64_t>::max()
                                                         : start_of(bucket + 1);
  return {start_of(bucket), end};
}

}  // namespace rt::detail
