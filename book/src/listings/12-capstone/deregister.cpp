bool RegistrationSet::deregister(ScheduledIo* io) {
  std::shared_ptr<ScheduledIo> released;  // freed after the unlock, if at all
  std::lock_guard lock(mutex_);
  auto it = registrations_.find(io);
  if (it == registrations_.end()) return false;  // shut down: freed already
  released = std::move(it->second);
  registrations_.erase(it);
  pending_release_.push_back(std::move(released));
  // release: the driver that sees the count sees the list (it locks it too).
  std::size_t pending = num_pending_release_.fetch_add(1, std::memory_order_release) + 1;
  return pending == notify_after;
}
