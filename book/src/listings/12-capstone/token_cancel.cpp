void CancellationToken::cancel() const {
  std::vector<std::weak_ptr<detail::CancellationState>> children;
  {
    std::lock_guard lock(state_->mutex);
    // release: a waiter that sees the flag sees what came before the cancel
    if (state_->cancelled.exchange(true, std::memory_order_acq_rel)) return;  // cancelled already
    state_->notify.notify_waiters();
    // Under the lock, so that a child made from now on is born cancelled.
    children.swap(state_->children);
  }
  for (const std::weak_ptr<detail::CancellationState>& weak : children) {
    if (std::shared_ptr<detail::CancellationState> child = weak.lock()) CancellationToken(child).cancel();
  }
}
