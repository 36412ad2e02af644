CancellationToken CancellationToken::child_token() const {
  auto child = std::make_shared<detail::CancellationState>();
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->cancelled.load(std::memory_order_relaxed)) {  // relaxed: the mutex orders it with cancel()
      // Forget children that are gone, so that a long-lived parent of
      // short-lived children does not grow.
      std::erase_if(state_->children, [](const auto& weak) { return weak.expired(); });
      state_->children.push_back(child);
      return CancellationToken(child);
    }
  }
  child->cancelled.store(true, std::memory_order_release);  // born cancelled
  return CancellationToken(child);
}
