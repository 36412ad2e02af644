std::optional<std::size_t> Idle::worker_to_notify() {
  // TODO: a task was just queued: choose ONE sleeping worker to wake, take
  // it off sleepers_ (so that the next task wakes another one), and
  // return its index; return std::nullopt when no worker sleeps.
  // Invariant: num_sleeping_ == sleepers_.size(), and only the list under
  // mutex_ says who sleeps; num_sleeping_ lets busy runtimes skip the lock.
  // Hint: two notifiers can both read num_sleeping_ == 1; only one may get
  // the sleeper.
  throw Todo("3 of chapter 04 (notify, in rt/scheduler/multi_thread/idle.cpp)");
}
