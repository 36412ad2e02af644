void CancellationToken::cancel() const {
  // TODO: cancel this token, once, and every child of it.
  //  - under state_->mutex: set state_->cancelled (an exchange, so that a
  //    second cancel() does nothing more: acq_rel), then wake every waiter
  //    (state_->notify.notify_waiters()), and take the children list;
  //  - after unlocking, cancel each child that still exists
  //    (weak_ptr::lock, then CancellationToken(child).cancel()).
  // Hint: a waiter makes its Notified, then reads the flag. Which order of
  // "set the flag" and "notify" can it miss?
  throw Todo("3 of chapter 12 (cancel, in rt/sync/cancellation_token.cpp)");
}
