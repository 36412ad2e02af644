void CurrentThread::shutdown() {
  shared_->closed.store(true, std::memory_order_release);  // wakes from now on are dropped
  // Destroying a coroutine can run destructors that wake other tasks or
  // drop the last reference to one: do it with no lock held.
  auto queued = shared_->queue.take_all();
  auto live = shared_->owned.close();
  for (auto& task : live) task->shutdown();
}
