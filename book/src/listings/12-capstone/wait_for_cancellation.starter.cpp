bool CancellationToken::WaitForCancellation::poll(Context& cx) {
  // TODO: ready once the token is cancelled; else wait for cancel()'s
  // notify_waiters().
  //  - make the Notified of this wait (notified_.emplace(state_->notify)),
  //    unless one is in progress; then call the test hook
  //    `if (auto hook = detail::after_notified_made.load(std::memory_order_acquire)) hook();`;
  //  - then the flag (state_->cancelled, acquire): set means ready;
  //  - else poll the Notified with cx: pending means pending; notified
  //    means look again (reset notified_ and go round).
  // Hint: why make the Notified before reading the flag, and not after?
  (void)cx;
  throw Todo("4 of chapter 12 (wait_for_cancellation, in rt/sync/cancellation_token.cpp)");
}
