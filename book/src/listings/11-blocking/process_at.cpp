void TimeDriver::process_at(std::uint64_t now) {
  WakeList wakers;  // woken with the lock released, 32 at a time
  std::unique_lock lock(mutex_);
  while (TimerEntry* entry = wheel_.poll(now)) {
    entry->state.write(TimerEntry::State::fired);
    --num_timers_;
    wakers.push(std::move(entry->waker));
    if (!wakers.can_push()) {
      lock.unlock();
      wakers.wake_all();
      lock.lock();
    }
  }
  next_wake_.store(wheel_.next_expiration_time().value_or(never), std::memory_order_release);
  lock.unlock();
  wakers.wake_all();
}
