void Semaphore::cancel(Acquire& acquire) {
  WakeList wake;
  std::lock_guard lock(mutex_);
  unlink(acquire.waiter_);
  // Handed a permit that nobody will use: pass it on, as Tokio's
  // Acquire::drop does, or the next waiter would wait for ever.
  if (acquire.waiter_.granted && !acquire.done_) release_one(wake);
}

