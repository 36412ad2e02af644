void CurrentThread::shutdown() {
  // Wakes from now on are dropped. Destroying a coroutine can run
  // destructors that wake other tasks or drop the last reference to one:
  // do it with no lock held.
  auto queued = shared_->queue.close();
  auto live = shared_->owned.close();
  for (auto& task : live) task->shutdown();
}
