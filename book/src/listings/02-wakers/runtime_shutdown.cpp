void CurrentThread::shutdown() {
  // No new tasks from now on; every live one is cancelled. Each comes out
  // of the list with the list's reference, which detail::shutdown takes.
  // No lock is held meanwhile: destroying a coroutine can wake or drop
  // other tasks.
  shared_->owned.close();
  while (Header* task = shared_->owned.pop()) detail::shutdown(task);
  // The Notifieds still queued are dropped, and so is every later one.
  Header* queued = shared_->queue.close();
  while (queued) {
    Header* next = queued->queue_next;
    drop_reference(queued);
    queued = next;
  }
}
