bool CancellationToken::WaitForCancellation::poll(Context& cx) {
  for (;;) {
    // The Notified first: from now on a notify_waiters() reaches it,
    // whether or not it has been polled yet. Then the flag, which answers
    // a cancel() that came before.
    if (!notified_) notified_.emplace(state_->notify);
    if (auto hook = detail::after_notified_made.load(std::memory_order_acquire)) hook();
    if (state_->cancelled.load(std::memory_order_acquire)) return true;  // acquire: pairs with cancel()'s exchange
    if (!notified_->poll(cx)) return false;
    // Notified: by this token's cancel() (the flag says so next time
    // round), or by nothing else, since only cancel() notifies.
    notified_.reset();
  }
}
