void Semaphore::release_one(WakeList& wake) {
  if (Waiter* waiter = waiters_.pop_front()) {
    waiter->granted = 1;  // the permit is now the waiter's
    wake.push(std::move(waiter->waker));
    return;
  }
  ++permits_;
}

