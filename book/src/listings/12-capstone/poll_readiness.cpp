std::optional<ReadyEvent> ScheduledIo::poll_readiness(Context& cx, io::Direction direction) {
  ReadyEvent event = ready_event(direction);
  if (event.ready != io::none || event.is_shutdown) return event;
  if (auto hook = before_io_waker_stored.load(std::memory_order_acquire)) hook();
  std::lock_guard lock(waiters_mutex_);
  Waker& slot = direction == io::Direction::read ? reader_ : writer_;
  if (!slot.will_wake(cx.waker())) slot = cx.waker();
  // Look again, now that the waker is where the driver will find it: an
  // event that came after the first look has set its bits by now, and one
  // that comes later will find the waker (wake() takes this lock).
  event = ready_event(direction);
  if (event.ready != io::none || event.is_shutdown) return event;
  return std::nullopt;
}
