bool Sleep::poll(Context& cx) {
  if (!registered_) {
    // The first poll: only now does the timer go into the wheel.
    registered_ = true;
    entry_.deadline = driver_->deadline_to_tick(deadline_);
    return driver_->register_entry(entry_, cx.waker());
  }
  return driver_->poll_entry(entry_, cx.waker());
}

Sleep::~Sleep() {
  if (registered_) driver_->deregister_entry(entry_);
}
