void CurrentThread::block_on(Poller& root) {
  // The parker lives as long as the shared state it is part of.
  auto signal = std::make_shared<BlockOnSignal>(std::shared_ptr<Parker>(shared_, &shared_->parker));
  Waker waker(signal);
  Context cx(waker);
  for (;;) {
    if (signal->take() && root.poll(cx)) return;
    if (auto task = shared_->queue.pop()) {
      (*task)->run();
      continue;
    }
    shared_->parker.park();  // until a task is queued or the root is woken
  }
}
