void CurrentThread::block_on(Poller& root) {
  BlockOnWaker* signal = nullptr;
  // The parker, kept alive by the scheduler's shared state it is part of.
  Waker waker = BlockOnWaker::create(std::shared_ptr<Parker>(shared_, &shared_->parker), signal);
  Context cx(waker);
  for (;;) {
    if (signal->take() && root.poll(cx)) return;
    if (Header* task = shared_->queue.pop()) {
      poll(task);  // the Notified's reference goes with it
      continue;
    }
    shared_->parker.park();  // until a task is queued or the root is woken
  }
}
