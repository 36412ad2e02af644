bool Idle::transition_worker_to_searching() {
  // seq_cst, as every access to the word: see the protocol in idle.hpp.
  std::uint32_t state = state_.load(std::memory_order_seq_cst);
  // At most about half: two workers may both pass this test before either
  // adds itself, as in Tokio; an approximate limit is enough.
  if (2 * (state & searching_mask) >= num_workers_) return false;
  state_.fetch_add(1, std::memory_order_seq_cst);
  return true;
}

bool Idle::transition_worker_from_searching() {
  std::uint32_t previous = state_.fetch_sub(1, std::memory_order_seq_cst);
  return (previous & searching_mask) == 1;
}
