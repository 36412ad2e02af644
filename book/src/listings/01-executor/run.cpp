void TaskBase::run() {
  if (finished_) return;  // woken during its last poll, then it finished
  // Cleared before the poll, so that a wake during the poll queues it again.
  scheduled_.store(false, std::memory_order_release);
  Waker waker(shared_from_this());
  Context cx(waker);
  if (!poller_.poll(cx)) return;
  finished_ = true;
  complete();
  scheduler_->release(*this);
}

