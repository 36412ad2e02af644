void Stats::end_batch(Clock::time_point now) {
  if (polls_in_batch_ == 0) return;  // nothing measured
  double elapsed_ns = std::chrono::duration<double, std::nano>(now - batch_started_).count();
  double polls = polls_in_batch_;
  double mean_ns = elapsed_ns / polls;
  // n polls weigh as n updates of weight alpha would: 1 - (1 - alpha)^n.
  double weight = 1.0 - std::pow(1.0 - alpha, polls);
  poll_time_ewma_ns_ = weight * mean_ns + (1.0 - weight) * poll_time_ewma_ns_;
}

std::uint32_t Stats::tuned_global_queue_interval() const {
  double tasks = target_interval_ns / poll_time_ewma_ns_;
  // Saturate before converting: a tiny average would overflow the integer.
  tasks = std::clamp(tasks, double{min_interval}, double{max_interval});
  return static_cast<std::uint32_t>(tasks);
}
