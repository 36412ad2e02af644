bool Signal::poll(Context& cx) {
  // TODO: ready when one of this Signal's signals was delivered since it
  // last looked; else wait for the registry's notify_waiters().
  //  - if ready_ is set already, say ready (poll may come twice);
  //  - make the wait's Notified (notified_.emplace(registry.notify()))
  //    unless one is in progress; call the test hook
  //      if (auto hook = rt::detail::after_signal_notified_made.load(std::memory_order_acquire)) hook();
  //    then look (take_delivered(): the first
  //    signal delivered since we looked, or 0). One came: drop the
  //    Notified, remember the signal in signo_, set ready_, return true;
  //  - else poll the Notified with cx: pending means pending; notified
  //    means some signal came: reset it and look again.
  // Hint: this is the check-then-wait of every wait in the course. What
  // must exist before you look, so that a delivery right after the look
  // still wakes this task?
  (void)cx;
  throw Todo("6 of chapter 12 (signal_poll, in rt/signal/signal.cpp)");
}
