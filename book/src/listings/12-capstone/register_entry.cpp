bool TimeDriver::register_entry(TimerEntry& entry, const Waker& waker) {
  registrations_.fetch_add(1, std::memory_order_relaxed);  // a statistic
  {
    std::lock_guard lock(mutex_);
    if (is_shutdown() || !wheel_.insert(&entry)) {
      entry.state.write(TimerEntry::State::fired);  // due already: ready now
      return true;
    }
    entry.state.write(TimerEntry::State::registered);
    entry.waker = waker;
    ++num_timers_;
  }
  // The driver may be asleep towards a later deadline: it must wake to
  // sleep less. (acquire: read what the parking driver stored.)
  if (entry.deadline < next_wake_.load(std::memory_order_acquire)) io_->unpark();
  return false;
}
