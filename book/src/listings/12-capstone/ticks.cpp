std::uint64_t TimeDriver::deadline_to_tick(time::Instant deadline) const {
  std::int64_t nanos = (deadline - start_).count();
  if (nanos <= 0) return 0;
  return static_cast<std::uint64_t>((nanos + nanos_per_tick - 1) / nanos_per_tick);  // up: never early
}

std::uint64_t TimeDriver::now_tick() const {
  std::int64_t nanos = (clock_.now() - start_).count();
  return nanos <= 0 ? 0 : static_cast<std::uint64_t>(nanos / nanos_per_tick);  // down
}
