std::size_t Histogram::bucket_of(std::uint64_t nanos) const {
  // TODO: the bucket of a poll that took `nanos` nanoseconds. With r the
  // resolution (resolution_ns_) and n the buckets (config_.num_buckets):
  //  - linear: bucket i holds [i*r, (i+1)*r);
  //  - log: bucket 0 holds [0, r), bucket i >= 1 holds [r*2^(i-1), r*2^i);
  //  - either way the last bucket also holds everything above it.
  // Hint: in log scale, how does the bucket of nanos/r relate to the
  // number of bits it takes to write nanos/r (std::bit_width)?
  (void)nanos;
  throw Todo("7 of chapter 12 (bucket_of, in rt/runtime/metrics/histogram.cpp)");
}
