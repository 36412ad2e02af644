std::size_t Histogram::bucket_of(std::uint64_t nanos) const {
  std::size_t last = config_.num_buckets - 1;
  std::uint64_t units = nanos / resolution_ns_;  // whole resolutions
  std::size_t bucket;
  if (config_.scale == HistogramConfig::Scale::linear) {
    bucket = units > last ? last : static_cast<std::size_t>(units);
  } else {
    // [r * 2^(i-1), r * 2^i) is bucket i: i is the bit width of `units`.
    bucket = static_cast<std::size_t>(std::bit_width(units));
    if (bucket > last) bucket = last;
  }
  return bucket;
}
