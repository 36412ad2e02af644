void Semaphore::release_one(WakeList& wake) {
  if (Waiter* waiter = pop_waiter()) {
    waiter->granted = 1;  // the permit is now the waiter's
    wake.push(std::move(waiter->waker));
    return;
  }
  state_.fetch_add(kPermit, std::memory_order_release);  // pairs with try_acquire's acquire
}

