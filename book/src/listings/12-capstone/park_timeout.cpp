int TimeDriver::park_timeout(int timeout_ms) {
  std::lock_guard lock(mutex_);
  std::optional<std::uint64_t> next = wheel_.next_expiration_time();
  // release: a registration that reads it sees the wheel as it is now.
  next_wake_.store(next.value_or(never), std::memory_order_release);
  if (!next) return timeout_ms;
  std::uint64_t now = now_tick();
  std::uint64_t until = *next > now ? *next - now : 0;
  auto until_ms = static_cast<int>(std::min<std::uint64_t>(until, INT_MAX));
  return timeout_ms < 0 ? until_ms : std::min(timeout_ms, until_ms);
}
