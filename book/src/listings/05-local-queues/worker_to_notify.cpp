std::optional<std::size_t> Idle::worker_to_notify() {
  // seq_cst: ordered after the push of the task this wake-up is for.
  if (num_sleeping_.load(std::memory_order_seq_cst) == 0) return std::nullopt;  // all busy
  std::lock_guard lock(mutex_);
  if (sleepers_.empty()) return std::nullopt;  // another notifier took the last one
  std::size_t worker = sleepers_.back();
  sleepers_.pop_back();
  num_sleeping_.fetch_sub(1, std::memory_order_seq_cst);
  return worker;
}
