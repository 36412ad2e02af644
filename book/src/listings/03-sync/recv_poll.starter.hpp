// Ready once a value is there, or once the sender is gone without one.
bool poll(Context& cx) override {
  Waker replaced;  // destroyed after the unlock
  // TODO: under shared_->mutex, report ready when a value is there or the
  // sender is gone; otherwise keep a clone of cx.waker() in
  // shared_->rx_waker (unless it will_wake the same task already) and
  // report pending.
  // Hint: the sender reads rx_waker under the same mutex, so a value sent
  // while you look cannot slip between your check and your waker.
  (void)cx;
  (void)replaced;
  throw Todo("5 of chapter 03 (oneshot_recv, in rt/sync/oneshot.hpp)");
}
