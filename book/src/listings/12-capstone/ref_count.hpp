// A new reference (a cloned waker). relaxed: a reference can only be
// made from another live one, which keeps the task alive meanwhile.
void ref_inc() {
  std::size_t previous = bits_.fetch_add(REF_ONE, std::memory_order_relaxed);
  // As Tokio: a count that wraps would free a live task; stop first.
  if (previous > std::numeric_limits<std::size_t>::max() / 2) std::abort();
}

// Drops one reference; true when it was the last.
bool ref_dec() {
  // acq_rel: the last owner must see every write of the others before
  // it frees the task (release here, acquire there).
  Snapshot previous{bits_.fetch_sub(REF_ONE, std::memory_order_acq_rel)};
  assert(previous.ref_count() >= 1);
  return previous.ref_count() == 1;
}
