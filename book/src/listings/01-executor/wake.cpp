void TaskBase::wake() {
  // A task that is queued already will be polled; queueing it twice would
  // poll it twice for one wake-up. Exactly one racing waker sees false.
  if (scheduled_.exchange(true, std::memory_order_acq_rel)) return;
  scheduler_->schedule(shared_from_this());
}

