// Ready once a value is there, or once the sender is gone without one.
bool poll(Context& cx) override {
  Waker replaced;  // destroyed after the unlock
  std::lock_guard lock(shared_->mutex);
  if (shared_->value || shared_->sender_gone) return true;
  if (!shared_->rx_waker.will_wake(cx.waker())) replaced = std::exchange(shared_->rx_waker, cx.waker());
  return false;
}
