bool Signal::poll(Context& cx) {
  if (ready_) return true;  // polled again before the value was taken
  rt::detail::SignalRegistry& registry = detail::SignalRegistry::instance();
  for (;;) {
    // The Notified first, then the generations: a delivery between the two
    // is in the generations; one after reaches the Notified.
    if (!notified_) notified_.emplace(registry.notify());
    if (auto hook = rt::detail::after_signal_notified_made.load(std::memory_order_acquire)) hook();
    if (int signo = take_delivered()) {
      notified_.reset();
      signo_ = signo;
      ready_ = true;
      return true;
    }
    if (!notified_->poll(cx)) return false;
    notified_.reset();  // some signal came: is it one of ours?
  }
}
